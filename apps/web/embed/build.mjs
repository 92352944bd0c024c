// Builds the script-tag embed: `public/embed/v1/widgets.js`, one self-contained file (widgets,
// their CSS and Preact's React compat layer). Run before `remix vite:build`, which copies
// `public/` into the app. `node embed/build.mjs` writes it; `buildEmbed()` returns it (size test).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build, transform } from "esbuild";
import { prepareWidgetCss } from "./css.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
export const outFile = path.join(here, "../public/embed/v1/widgets.js");
/** The budget of the script plus its first widget (here: all of them), gzip. */
export const BUDGET_BYTES = 20 * 1024;

const require = createRequire(import.meta.url);

/** React imports served by Preact: the npm package keeps React as a peer, this file needs 20 KB. */
const preactAliases = {
  react: "preact/compat",
  "react-dom": "preact/compat",
  "react-dom/client": "preact/compat/client",
  "react/jsx-runtime": "preact/jsx-runtime",
  "react/jsx-dev-runtime": "preact/jsx-runtime",
};

export async function widgetCss() {
  const source = readFileSync(require.resolve("@game/widgets/styles.css"), "utf8");
  const { code } = await transform(prepareWidgetCss(source), { loader: "css", minify: true });
  return code.trim();
}

/** The bundle as bytes, with its gzip size. */
export async function buildEmbed() {
  const css = await widgetCss();
  const result = await build({
    entryPoints: [path.join(here, "widgets.tsx")],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: ["es2020", "chrome90", "firefox90", "safari15"],
    minify: true,
    legalComments: "none",
    jsx: "automatic",
    jsxImportSource: "preact",
    alias: preactAliases,
    define: {
      __GF_CSS__: JSON.stringify(css),
      "process.env.NODE_ENV": '"production"',
    },
    logLevel: "silent",
  });
  const code = result.outputFiles[0].contents;
  return { code, gzipBytes: gzipSync(code, { level: 9 }).length };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { code, gzipBytes } = await buildEmbed();
  mkdirSync(path.dirname(outFile), { recursive: true });
  writeFileSync(outFile, code);
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  console.log(
    `embed: ${path.relative(process.cwd(), outFile)} ${kb(code.length)}, ${kb(gzipBytes)} gzip (budget ${kb(BUDGET_BYTES)})`,
  );
  if (gzipBytes > BUDGET_BYTES) {
    console.error("embed: over the size budget");
    process.exit(1);
  }
}
