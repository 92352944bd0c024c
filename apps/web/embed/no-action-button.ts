/**
 * The racer table's per-row button as the script-tag embed builds it: no element there passes
 * `action`, so `build.mjs` puts this in place of the package's button, which with its tooltip's
 * rules weighs about 460 bytes (brotli) on every racer-table page (docs/decisions/0182). An element that
 * someday passes `action` fails here, loudly, instead of showing a table without its buttons.
 */
export function ActionButton(): never {
  throw new Error("gf: no action column in the embed");
}
