import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The committed SQL migrations, beside `src/` and `dist/`. */
export const migrationsFolder = fileURLToPath(new URL("../drizzle", import.meta.url));

/** The seed files (events and the racer CSV). */
export const seedFolder = fileURLToPath(new URL("../seed", import.meta.url));

/**
 * The folder holding the embedded database when DATA_DIR is not set: `data/` at the repository
 * root, so the web app (run from apps/web) and the CLI (run from anywhere) share one database.
 */
export function defaultDataDir(cwd = process.cwd()): string {
  let dir = path.resolve(cwd);
  for (;;) {
    const pkg = path.join(dir, "package.json");
    if (existsSync(pkg)) {
      try {
        if (JSON.parse(readFileSync(pkg, "utf8")).workspaces) return path.join(dir, "data");
      } catch {
        // An unreadable package.json is not the root; keep looking.
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) return path.resolve(cwd, "data");
    dir = parent;
  }
}

export function resolveDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.DATA_DIR ? path.resolve(env.DATA_DIR) : defaultDataDir();
}
