#!/usr/bin/env node
import { existsSync } from "node:fs";

// The CLI runs from its build and that of the workspace packages it uses: when one is missing,
// say how to make it instead of printing a module-not-found stack trace.
const NOT_BUILT = "game-admin is not built yet: run `npm run build` (or `npm start`) first.\n";

const entry = new URL("../dist/index.js", import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write(NOT_BUILT);
  process.exit(1);
}
try {
  await import(entry.href);
} catch (error) {
  // "Cannot find module '.../packages/db/dist/index.js' imported from ...": a workspace package
  // is not built. A missing npm package ("Cannot find package") is left to speak for itself.
  if (
    error?.code === "ERR_MODULE_NOT_FOUND" &&
    /^Cannot find module '[^']*[\\/]dist[\\/]/.test(error.message)
  ) {
    process.stderr.write(NOT_BUILT);
    process.exit(1);
  }
  throw error;
}
