// Builds the script-tag embed into `public/embed/v1/` (run before `remix vite:build`, which
// copies `public/` into the app; the output is not committed):
//
// - `widgets.js`: the loader partners include (classic script, no framework): it defines the
//   elements and imports a widget's module when its element first appears;
// - `<widget>-<hash>.js`: one ES module per element, with its own CSS (only the rules it can use)
//   and every part of the widgets it uses beyond the shared chunk;
// - `shared-<hash>.js`: what every widget uses (Preact, the runtime, the API client), once.
//
// `node embed/build.mjs` writes them; `buildEmbed()` returns them with their sizes (size test).
// docs/decisions/0090-embed-split-per-element.md, 0177-embed-one-shared-chunk.md.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { build, transform } from "esbuild";
import { keepUsedRules, prepareWidgetCss } from "./css.mjs";
import { WIDGETS_IMPORT, widgetsSourceFile } from "./widgets-source.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
export const outDir = path.join(here, "../public/embed/v1");
export const outFile = path.join(outDir, "widgets.js");
/** What a page using one element loads (loader, its module, shared chunks), gzip. */
export const BUDGET_BYTES = 16 * 1024;
/**
 * The target under the budget: headroom for what widgets will show next (decision 0177), as
 * served to browsers that take brotli (0181); gzip, the fallback, is held to it too where it fits.
 */
export const TARGET_BYTES = 14 * 1024;

/**
 * The widgets, from their one list (widgets.json, which the dashboard's embed code generator
 * reads too, and the loader by the names of the modules built from it): element name -> its
 * module (in `elements/`) and component.
 */
const catalogue = JSON.parse(readFileSync(path.join(here, "widgets.json"), "utf8"));
export const WIDGETS = Object.fromEntries(
  Object.entries(catalogue).map(([file, w]) => [`gf-${file}`, { file, component: w.component }]),
);

const require = createRequire(import.meta.url);
const shim = path.join(here, "react-shim.ts");

/**
 * React imports served by Preact's core through a small shim (see react-shim.ts): the npm
 * package keeps React as a peer, this script has a 16 KB budget.
 */
const preactAliases = {
  react: shim,
  "react-dom": shim,
  "react/jsx-runtime": "preact/jsx-runtime",
  "react/jsx-dev-runtime": "preact/jsx-runtime",
};

/**
 * `@game/widgets/<entry>` from the package's TypeScript source rather than its build: esbuild
 * then compiles it for the embed's browsers (no class-field helper from the package's es2020
 * build) and the embed does not wait for the package's build (docs/decisions/0177).
 */
const widgetsSource = {
  name: "gf-widgets-source",
  setup(b) {
    b.onResolve({ filter: WIDGETS_IMPORT }, (a) => {
      const file = widgetsSourceFile(WIDGETS_IMPORT.exec(a.path)?.[1] ?? "index");
      return file ? { path: file } : undefined;
    });
  },
};

/**
 * The racer table's per-row button left out: no element of the embed shows that column
 * (no-action-button.ts, docs/decisions/0182).
 */
const withoutActionButton = {
  name: "gf-without-action-button",
  setup(b) {
    b.onResolve({ filter: /^\.\/internal\/action-button\.js$/ }, (a) =>
      path.basename(a.importer) === "racer-table.tsx"
        ? { path: path.join(here, "no-action-button.ts") }
        : undefined,
    );
  },
};

const shared = {
  bundle: true,
  write: false,
  platform: "browser",
  // Chrome 91, not 90: for older Chrome (a V8 optional-chaining bug, fixed in 91) esbuild
  // rewrites every `?.`, about 140 bytes gzip per page (docs/decisions/0145). No "es2020": it
  // would lower class fields and `??=`, which these browsers have.
  target: ["chrome91", "firefox90", "safari15"],
  minify: true,
  legalComments: "none",
  jsx: "automatic",
  jsxImportSource: "preact",
  alias: preactAliases,
  define: { "process.env.NODE_ENV": '"production"' },
  logLevel: "silent",
};

const CSS_PLACEHOLDER = "__GF_CSS__";

/** Each widget's entry: its component, the shared runtime, and a CSS slot filled in below. */
const entries = {
  name: "gf-entries",
  setup(b) {
    b.onResolve({ filter: /^gf-entry:/ }, (a) => ({
      path: a.path.slice("gf-entry:".length),
      namespace: "gf-entry",
    }));
    b.onLoad({ filter: /.*/, namespace: "gf-entry" }, (a) => {
      const w = Object.values(WIDGETS).find((x) => x.file === a.path);
      const element = JSON.stringify(path.join(here, "elements", `${w.file}.tsx`));
      const runtime = JSON.stringify(path.join(here, "runtime.ts"));
      return {
        contents: [
          `export { ${w.component} as component } from ${element};`,
          `export { addStyles, mount, unmount } from ${runtime};`,
          `export const css = ${JSON.stringify(CSS_PLACEHOLDER)};`,
        ].join("\n"),
        loader: "ts",
        resolveDir: here,
      };
    });
  },
};

/** The widget stylesheet as written, without comments. */
function widgetSource() {
  return readFileSync(require.resolve("@game/widgets/styles.css"), "utf8");
}

/** The CSS for a widget whose code (with its imports) is `code`, ready for a shadow root. */
export async function widgetCss(code) {
  const source = code === undefined ? widgetSource() : keepUsedRules(widgetSource(), code);
  const { code: css } = await transform(prepareWidgetCss(source), { loader: "css", minify: true });
  return css.trim();
}

const hash = (bytes) => createHash("sha256").update(bytes).digest("hex").slice(0, 10);
const gzip = (bytes) => gzipSync(bytes, { level: 9 }).length;
/**
 * As the app serves the file to a browser that takes brotli (every current one, over HTTPS): the
 * build's brotli, at the best quality (server/precompress.ts, docs/decisions/0181).
 */
const brotli = (bytes) =>
  brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;

/**
 * Builds every file. Returns them by name, the loader's name, and per element the files a page
 * using it loads with their total gzip size.
 */
export async function buildEmbed() {
  const modules = await build({
    ...shared,
    entryPoints: Object.fromEntries(
      Object.values(WIDGETS).map((w) => [w.file, `gf-entry:${w.file}`]),
    ),
    format: "esm",
    splitting: true,
    outdir: outDir,
    entryNames: "[name]",
    chunkNames: "shared-[hash]",
    metafile: true,
    plugins: [entries, widgetsSource, withoutActionButton],
  });
  const outputs = modules.metafile.outputs;
  const split = new Map(modules.outputFiles.map((f) => [path.basename(f.path), f.contents]));
  /** A module and every chunk it imports, transitively, by file name. */
  const closure = (name, seen = new Set()) => {
    if (seen.has(name)) return seen;
    seen.add(name);
    const meta = Object.entries(outputs).find(([p]) => path.basename(p) === name)?.[1];
    for (const i of meta?.imports ?? []) {
      if (i.kind === "import-statement") closure(path.basename(i.path), seen);
    }
    return seen;
  };
  const widgetFiles = Object.values(WIDGETS).map((w) => `${w.file}.js`);
  const closures = new Map(widgetFiles.map((f) => [f, [...closure(f)]]));
  // The chunks every widget imports (Preact, the runtime, the API client) stay shared: a page
  // with two kinds of widget downloads them once. Any other chunk is merged into each module
  // that imports it (docs/decisions/0177): one file, one gzip stream, instead of up to four.
  const core = new Set(
    [...split.keys()].filter(
      (n) => n.startsWith("shared-") && widgetFiles.every((f) => closures.get(f).includes(n)),
    ),
  );
  const merged = await build({
    ...shared,
    entryPoints: Object.fromEntries(widgetFiles.map((f) => [f.slice(0, -3), `gf-chunk:${f}`])),
    format: "esm",
    outdir: outDir,
    entryNames: "[name]",
    plugins: [
      {
        name: "gf-merge",
        setup(b) {
          b.onResolve({ filter: /.*/ }, (a) => {
            const name = path.basename(a.path.replace(/^gf-chunk:/, ""));
            return core.has(name)
              ? { path: `./${name}`, external: true }
              : { path: name, namespace: "gf-chunk" };
          });
          b.onLoad({ filter: /.*/, namespace: "gf-chunk" }, (a) => ({
            contents: split.get(a.path),
            loader: "js",
          }));
        },
      },
    ],
  });
  const byName = new Map(merged.outputFiles.map((f) => [path.basename(f.path), f.contents]));

  const files = new Map();
  for (const name of core) files.set(name, split.get(name));
  const chunks = {};
  const imports = {};
  const decoder = new TextDecoder();
  for (const [tag, w] of Object.entries(WIDGETS)) {
    const deps = closures.get(`${w.file}.js`).filter((n) => core.has(n));
    const own = decoder.decode(byName.get(`${w.file}.js`));
    const code = [own, ...deps.map((d) => decoder.decode(split.get(d)))].join("\n");
    const css = await widgetCss(code);
    if (!own.includes(JSON.stringify(CSS_PLACEHOLDER))) {
      throw new Error(`embed: no CSS slot in ${w.file}.js`);
    }
    const bytes = new TextEncoder().encode(
      own.replace(JSON.stringify(CSS_PLACEHOLDER), () => JSON.stringify(css)),
    );
    // Named by content (CSS included), so a changed widget never hides behind a cached file.
    const name = `${w.file}-${hash(bytes)}.js`;
    files.set(name, bytes);
    chunks[tag] = name;
    imports[tag] = deps;
  }

  const loader = await build({
    ...shared,
    entryPoints: [path.join(here, "loader.ts")],
    format: "iife",
    define: {
      ...shared.define,
      __GF_FILES__: JSON.stringify(
        Object.fromEntries(Object.keys(chunks).map((tag) => [tag, [chunks[tag], ...imports[tag]]])),
      ),
    },
  });
  const loaderBytes = loader.outputFiles[0].contents;
  files.set("widgets.js", loaderBytes);

  const perElement = {};
  for (const tag of Object.keys(WIDGETS)) {
    const loads = ["widgets.js", chunks[tag], ...imports[tag]];
    perElement[tag] = {
      files: loads,
      gzipBytes: loads.reduce((n, f) => n + gzip(files.get(f)), 0),
      brotliBytes: loads.reduce((n, f) => n + brotli(files.get(f)), 0),
    };
  }
  const totalGzipBytes = [...files.values()].reduce((n, b) => n + gzip(b), 0);
  return { files, chunks, perElement, totalGzipBytes, loader: loaderBytes };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { files, perElement, totalGzipBytes } = await buildEmbed();
  mkdirSync(outDir, { recursive: true });
  // Old hashed modules would pile up: the folder holds only this build's files.
  for (const old of readdirSync(outDir)) {
    if (old.endsWith(".js")) rmSync(path.join(outDir, old));
  }
  for (const [name, bytes] of files) writeFileSync(path.join(outDir, name), bytes);
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  let over = false;
  for (const [tag, { gzipBytes, brotliBytes }] of Object.entries(perElement)) {
    console.log(
      `embed: a page with <${tag}> loads ${kb(brotliBytes)} brotli, ${kb(gzipBytes)} gzip`,
    );
    over ||= gzipBytes > BUDGET_BYTES;
  }
  console.log(
    `embed: ${files.size} files in ${path.relative(process.cwd(), outDir)}, ${kb(totalGzipBytes)} gzip in all (budget per element ${kb(BUDGET_BYTES)})`,
  );
  if (over) {
    console.error("embed: over the size budget");
    process.exit(1);
  }
}
