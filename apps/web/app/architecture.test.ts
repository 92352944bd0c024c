/**
 * The app's layout rules (docs/decisions/0125-web-app-by-feature.md), read from the imports of
 * every module under app/: routes reach the database only through a feature's server module,
 * and the infrastructure (utils/) and shared UI (components/) never depend on a feature.
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

const files = modules(APP).map((file) => ({
  file: path.relative(APP, file),
  imports: importsOf(readFileSync(file, "utf8")).map((s) => ({ s, to: target(file, s) })),
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
});
