// `@game/widgets/<entry>` from the package's TypeScript source, for the app's build (vite.config.ts)
// and the embed's (build.mjs): compiled for their own targets, sharing core's helpers with the app
// instead of the copies the package's build carries (docs/decisions/0177, 0178).
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const SRC = fileURLToPath(new URL("../../../packages/widgets/src/", import.meta.url));

/**
 * A `@game/widgets` import of code; group 1 is the entry. Entries have no dot, so the stylesheet
 * (`styles.css`) stays the built one. No lookaround: esbuild's filters are Go regular expressions.
 */
export const WIDGETS_IMPORT = /^@game\/widgets(?:\/([\w-]+))?$/;

/**
 * The source file of a `@game/widgets` entry (`index` for the package itself), or null.
 * @param {string} entry
 * @returns {string | null}
 */
export function widgetsSourceFile(entry) {
  for (const ext of [".ts", ".tsx"]) {
    const file = path.join(SRC, `${entry}${ext}`);
    if (existsSync(file)) return file;
  }
  return null;
}
