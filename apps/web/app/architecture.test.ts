/**
 * The app's layout rules (docs/decisions/0125-web-app-by-feature.md), read from the imports and
 * declarations of every module under app/: routes reach the database only through a feature's
 * server module and wire a feature's component rather than holding the UI, the infrastructure
 * (utils/) and shared UI (components/) never depend on a feature, and the public API's code lives
 * in features/api.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const APP = path.dirname(fileURLToPath(import.meta.url));

function modules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const at = path.join(dir, entry.name);
    if (entry.isDirectory()) return modules(at);
    return /\.(ts|tsx)$/.test(entry.name) ? [at] : [];
  });
}

/** Every specifier a module imports or re-exports: static, type-only, side-effect or dynamic. */
function importsOf(source: string): string[] {
  const found = new Set<string>();
  const patterns = [
    /\b(?:import|export)\s+(?:type\s+)?[^'";]*?\bfrom\s*["']([^"']+)["']/g,
    /\bimport\s*["']([^"']+)["']/g,
    /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
  ];
  for (const pattern of patterns) for (const m of source.matchAll(pattern)) found.add(m[1]!);
  return [...found];
}

/** Where an app-internal specifier points, relative to app/ (`features/team/setup.server`). */
function target(file: string, specifier: string): string | null {
  if (specifier.startsWith("~/")) return specifier.slice(2);
  if (!specifier.startsWith(".")) return null;
  const resolved = path.relative(APP, path.resolve(path.dirname(file), specifier));
  return resolved.startsWith("..") ? null : resolved;
}

/**
 * The React components a module declares at its top level: `function Name(`, `const Name = (`
 * (or `memo(`, `forwardRef(`), `class Name extends`. Uppercase names are components by React's
 * own rule; `const NAMES = [...]` is not one.
 */
function componentsOf(source: string): string[] {
  const patterns = [
    /^(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s+([A-Z]\w*)\s*[(<]/gm,
    /^(?:export\s+)?const\s+([A-Z]\w*)\s*(?::[^=]+)?=\s*(?:\(|async\s*\(|function\b|\w+\s*=>|(?:React\.)?(?:memo|forwardRef)\s*\()/gm,
    /^(?:export\s+)?(?:default\s+)?class\s+([A-Z]\w*)\s+extends\b/gm,
  ];
  return patterns.flatMap((p) => [...source.matchAll(p)].map((m) => m[1]!));
}

/** The route module's own exports Remix renders, besides its default export. */
const REMIX_COMPONENTS = new Set(["ErrorBoundary", "Layout", "HydrateFallback"]);

/**
 * The longest a route module may be: loader, action, meta and a default export that hands the
 * loader's data to its feature's component. The static text pages are the exception (their text
 * is the page).
 */
const ROUTE_MAX_LINES = 200;
const TEXT_PAGES = new Set(["about.tsx", "privacypolicy.tsx", "tos.tsx"]);

const sources = modules(APP).map((file) => ({ file, source: readFileSync(file, "utf8") }));
const files = sources.map(({ file, source }) => ({
  file: path.relative(APP, file),
  imports: importsOf(source).map((s) => ({ s, to: target(file, s) })),
  components: componentsOf(source),
  defaultComponent: /^export\s+default\s+function\s+([A-Z]\w*)/m.exec(source)?.[1] ?? null,
}));
const isTest = (file: string) => /\.test\.tsx?$/.test(file);

describe("app layout", () => {
  it("reads imports of every kind", () => {
    expect(
      importsOf(
        [
          'import { a } from "@game/db";',
          'import type { B } from "~/features/x/y";',
          'export { c } from "./c";',
          'import "./side.css";',
          'const d = await import("../d");',
          "import {\n  e,\n  f,\n} from '@game/db/testing';",
        ].join("\n"),
      ),
    ).toEqual(["@game/db", "~/features/x/y", "./c", "@game/db/testing", "./side.css", "../d"]);
  });

  it("finds the modules it checks", () => {
    const dirs = new Set(files.map((f) => f.file.split(path.sep)[0]));
    for (const dir of ["routes", "features", "utils", "components"]) expect(dirs).toContain(dir);
  });

  it("routes never import @game/db: their feature's server module does", () => {
    const offenders = files
      .filter((f) => f.file.startsWith(`routes${path.sep}`) && !isTest(f.file))
      .flatMap((f) =>
        f.imports
          .filter(({ s }) => s === "@game/db" || s.startsWith("@game/db/"))
          .map(({ s }) => `${f.file} imports ${s}`),
      );
    expect(offenders).toEqual([]);
  });

  it("utils/ and components/ import nothing from a feature or a route", () => {
    const offenders = files
      .filter((f) => /^(utils|components)[\\/]/.test(f.file))
      .flatMap((f) =>
        f.imports
          .filter(({ to }) => to !== null && /^(features|routes)[\\/]/.test(to))
          .map(({ s }) => `${f.file} imports ${s}`),
      );
    expect(offenders).toEqual([]);
  });

  it("modules the browser may load take @game/core by subpath, never its main entry", () => {
    // A bundler keeps the main entry whole: one constant from it shipped zod, the CSV parser and
    // the password list with every page (decision 0164). Server modules may use it.
    const offenders = files
      .filter((f) => !isTest(f.file) && !/\.server\.tsx?$/.test(f.file))
      .flatMap((f) =>
        f.imports.filter(({ s }) => s === "@game/core").map(({ s }) => `${f.file} imports ${s}`),
      );
    expect(offenders).toEqual([]);
  });

  it("features never import a route", () => {
    const offenders = files
      .filter((f) => f.file.startsWith(`features${path.sep}`) && !isTest(f.file))
      .flatMap((f) =>
        f.imports
          .filter(({ to }) => to?.startsWith(`routes${path.sep}`))
          .map(({ s }) => `${f.file} imports ${s}`),
      );
    expect(offenders).toEqual([]);
  });

  it("finds the components a module declares", () => {
    expect(
      componentsOf(
        [
          "export default function Page() {}",
          "export function ErrorBoundary() {}",
          "function Row({ r }: { r: R }) {}",
          "const Badge = ({ s }: { s: string }) => null;",
          "export const Panel = memo(function Panel() {});",
          "class Old extends Component {}",
          "const SECTIONS = [1];",
          "function helper() {}",
        ].join("\n"),
      ),
    ).toEqual(["Page", "ErrorBoundary", "Row", "Badge", "Panel", "Old"]);
  });

  it("routes declare no component beyond their default export: the UI is the feature's", () => {
    const routes = files.filter((f) => /^routes[\\/][^\\/]+\.tsx$/.test(f.file) && !isTest(f.file));
    const offenders = routes.flatMap((f) =>
      f.components
        .filter((c) => c !== f.defaultComponent && !REMIX_COMPONENTS.has(c))
        .map((c) => `${f.file} declares ${c}`),
    );
    expect(offenders).toEqual([]);
    const long = sources
      .filter(({ file }) => {
        const name = path.relative(APP, file);
        return /^routes[\\/][^\\/]+\.tsx?$/.test(name) && !isTest(name);
      })
      .filter(({ file }) => !TEXT_PAGES.has(path.basename(file)))
      .map(({ file, source }) => ({ file, lines: source.split("\n").length }))
      .filter(({ lines }) => lines > ROUTE_MAX_LINES)
      .map(({ file, lines }) => `${path.relative(APP, file)}: ${lines} lines`);
    expect(long).toEqual([]);
    // The pages moved into their features stay wiring: a loader, an action, one component.
    for (const route of ["admin.partners.tsx", "admin.results.tsx"]) {
      const f = routes.find((r) => path.basename(r.file) === route)!;
      expect(f.components, route).toEqual([f.defaultComponent]);
      expect(
        f.imports.map((i) => i.to).filter((to) => to?.startsWith(`features${path.sep}`)),
      ).not.toEqual([]);
    }
  });

  it("utils/ holds no API code: the public API's plumbing lives in features/api", () => {
    const offenders = files
      .filter((f) => /^utils[\\/]/.test(f.file) && /api/i.test(path.basename(f.file)))
      .map((f) => f.file);
    expect(offenders).toEqual([]);
    expect(files.some((f) => f.file === path.join("features", "api", "api.server.ts"))).toBe(true);
  });
});
