/**
 * What a player's browser downloads, read from the production build (`npm run build`; turbo's
 * test task builds first): the JavaScript of a page is the client entry, the root route and the
 * page's route module with every module they import statically (what the server-rendered page
 * preloads), each file gzipped at level 9 as the app's static files are. Budgets and the
 * figures before and after: docs/decisions/0164-client-bundle-budget.md, docs/benchmarks.md.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { LICENSES_LINK } from "~/features/layout/licenses";

const WEB = fileURLToPath(new URL("..", import.meta.url));
const CLIENT = path.join(WEB, "build/client");
const REPO = path.join(WEB, "../..");

const KB = 1024;
/** The target for a page's JavaScript (a bare Remix page on the same versions is about 86 KB). */
const BUDGET_KB = 100;
/**
 * The event page: the team's display parts and the leagues panel (decision 0178). 150.2 KB before
 * the league forms' check was fetched apart, 102.5 after; 100.5 KB once the season's changes came
 * apart too (decision 0180). Held here.
 */
const EVENT_PAGE_KB = 101;

const PAGES = [
  { url: "/", route: "routes/_index", budgetKb: BUDGET_KB },
  { url: "/view-racers", route: "routes/view-racers", budgetKb: BUDGET_KB },
  { url: "/players-ranking", route: "routes/players-ranking", budgetKb: BUDGET_KB },
  // 107.8 KB before Terser and the first deferred parts (decision 0178), 102.1 after; 99.8 once
  // the licence comments, the login modal's state and the rarer rules' controls left it (0180).
  { url: "/team-setup", route: "routes/team-setup", budgetKb: BUDGET_KB },
  // The event page (not in the four).
  { url: "/game/5", route: "routes/game.$id", budgetKb: EVENT_PAGE_KB },
  // The partner's team builder in its iframe and its sign-in popup (decision 0179): 124.1 and
  // 111.0 KB while they checked their messages with zod.
  { url: "/embed/team-setup", route: "routes/embed.team-setup", budgetKb: BUDGET_KB },
  { url: "/embed/auth", route: "routes/embed.auth", budgetKb: BUDGET_KB },
] as const;

interface RemixManifest {
  entry: { module: string; imports: string[] };
  routes: Record<string, { module: string; imports?: string[] }>;
}

function readManifest(): RemixManifest {
  const assets = path.join(CLIENT, "assets");
  if (!existsSync(assets)) {
    throw new Error(
      `No production build at ${path.relative(REPO, CLIENT)}: build it first ` +
        "(`npx turbo run build --filter=@game/web...`; turbo's test task builds before testing).",
    );
  }
  const found = readdirSync(assets).filter((f) => /^manifest-[\w-]+\.js$/.test(f));
  if (found.length !== 1) {
    throw new Error(
      `Expected one Remix manifest in the build's assets, found: ${found.join(", ")}`,
    );
  }
  // `window.__remixManifest={...};`
  const text = readFileSync(path.join(assets, found[0]!), "utf8");
  return JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)) as RemixManifest;
}

const read = (url: string) => readFileSync(path.join(CLIENT, url));

/**
 * The files a module imports statically (`import{a}from"./x.js"`, `import"./y.js"`), not the
 * ones it may fetch later (`import("./z.js")`).
 */
function staticImports(url: string): string[] {
  const source = read(url).toString("utf8");
  const found = new Set<string>();
  const pattern =
    /\b(?:import|export)\s*(?:[\w$*{}\s,]+?\s*from\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g;
  for (const m of source.matchAll(pattern))
    found.add(path.posix.join(path.posix.dirname(url), m[1]!));
  return [...found];
}

/** Entry, root and route modules, what the manifest lists with them, and all they import. */
function pageFiles(manifest: RemixManifest, route: string): string[] {
  const root = manifest.routes.root!;
  const page = manifest.routes[route];
  if (!page) throw new Error(`No route ${route} in the build's manifest`);
  const files = new Set<string>();
  const todo = [
    manifest.entry.module,
    ...manifest.entry.imports,
    root.module,
    ...(root.imports ?? []),
    page.module,
    ...(page.imports ?? []),
  ];
  for (let url = todo.pop(); url !== undefined; url = todo.pop()) {
    if (files.has(url)) continue;
    files.add(url);
    todo.push(...staticImports(url));
  }
  return [...files].sort();
}

const gzipBytes = (url: string) => gzipSync(read(url), { level: 9 }).length;
const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;

/** Where a package's files are (hoisted to the root, or kept under a workspace). */
function packageFile(name: string, file: string): string {
  for (const base of [
    REPO,
    path.join(REPO, "packages/db"),
    path.join(REPO, "packages/core"),
    WEB,
  ]) {
    const at = path.join(base, "node_modules", name, file);
    if (existsSync(at)) return at;
  }
  throw new Error(`Cannot find ${name}/${file} to check the marker against`);
}

/**
 * Text that only this code contains, checked against the package itself (so an upgrade that
 * drops it fails here rather than making the check pass for nothing).
 */
interface Marker {
  what: string;
  text: string;
  source: () => string;
}
const marker = (what: string, text: string, pkg: string, file: string): Marker => ({
  what,
  text,
  source: () => readFileSync(packageFile(pkg, file), "utf8"),
});

/** Text of one of the app's own modules. */
const appMarker = (what: string, text: string, file: string): Marker => ({
  what,
  text,
  source: () => readFileSync(path.join(WEB, "app", file), "utf8"),
});

/** Server-only code: never in any file of the browser's build. */
const SERVER_ONLY: Marker[] = [
  // @game/db's tables are drizzle tables.
  marker("drizzle-orm (@game/db)", '"PgTable"', "drizzle-orm", "pg-core/table.js"),
  marker("postgres", "SCRAM-SHA-256", "postgres", "src/connection.js"),
  marker("@electric-sql/pglite", "pglite.wasm", "@electric-sql/pglite", "dist/pglite.js"),
];
/**
 * Big libraries pages must not carry: the admin's CSV preview, the account page's password check
 * and the login form's check (fetched once a visitor starts on it) may.
 */
const NOT_ON_PAGES: Marker[] = [
  // Fetched apart (decision 0178): the login dialog's form and a rider's details.
  appMarker("the login dialog", "modal-panel", "features/auth/login-dialog.tsx"),
  appMarker("the rider details", "racer-dialog__facts", "features/team/racer-detail-dialog.tsx"),
  // Fetched apart too (decision 0180): the login modal's state, and what only some teams show.
  appMarker("the login modal's host", '"login-modal"', "features/auth/login-modal-host.tsx"),
  appMarker(
    "the captain and bench controls",
    "team-builder__captain-hint",
    "features/team/team-roles.tsx",
  ),
  appMarker("the transfers line", "team-transfers__line", "features/team/transfer-line.tsx"),
  appMarker("the season's changes", "season-changes__table", "features/team/season-changes.tsx"),
  marker("zod", "$ZodError", "zod", "v4/core/errors.js"),
  marker("papaparse", "__parsed_extra", "papaparse", "papaparse.js"),
  marker("linkify-it", "fuzzyLink", "linkify-it", "build/index.mjs"),
  {
    what: "the common-password list",
    text: "q1w2e3r4t5",
    source: () => readFileSync(path.join(REPO, "packages/core/src/common-passwords.ts"), "utf8"),
  },
];

describe("the browser's JavaScript (production build)", () => {
  const manifest = readManifest();
  const allFiles = readdirSync(path.join(CLIENT, "assets"))
    .filter((f) => f.endsWith(".js"))
    .map((f) => `/assets/${f}`);

  it("finds every page, and its files are what the server-rendered page preloads", () => {
    for (const { route } of PAGES) {
      const files = pageFiles(manifest, route);
      expect(files).toContain(manifest.entry.module);
      expect(files).toContain(manifest.routes[route]!.module);
      // Remix lists a route's static imports itself; reading the files adds nothing to that.
      const listed = new Set([
        manifest.entry.module,
        ...manifest.entry.imports,
        manifest.routes.root!.module,
        ...(manifest.routes.root!.imports ?? []),
        manifest.routes[route]!.module,
        ...(manifest.routes[route]!.imports ?? []),
      ]);
      expect(files.filter((f) => !listed.has(f))).toEqual([]);
    }
  });

  it.each(PAGES)(
    "$url loads at most its budget of JavaScript, gzipped",
    ({ url, route, budgetKb }) => {
      const files = pageFiles(manifest, route);
      const sizes = files.map((f) => ({ file: f, bytes: gzipBytes(f) }));
      const total = sizes.reduce((sum, s) => sum + s.bytes, 0);
      const largest = [...sizes]
        .sort((a, b) => b.bytes - a.bytes)
        .slice(0, 4)
        .map((s) => `${path.posix.basename(s.file)} ${kb(s.bytes)}`);
      console.log(
        `client JS ${url}: ${kb(total)} gzip in ${files.length} files (budget ${budgetKb} KB); ` +
          `largest: ${largest.join(", ")}`,
      );
      expect(total, `${url}: ${kb(total)}`).toBeLessThanOrEqual(budgetKb * KB);
    },
  );

  it("has markers that are in the code they stand for", () => {
    for (const m of [...SERVER_ONLY, ...NOT_ON_PAGES]) {
      expect(m.source().includes(m.text), `${m.what}: "${m.text}"`).toBe(true);
    }
  });

  it("writes the licences of the packages it ships, where the About page links them", () => {
    const file = path.join(CLIENT, LICENSES_LINK);
    expect(existsSync(file), `${LICENSES_LINK} in the build`).toBe(true);
    const text = readFileSync(file, "utf8");
    // The framework's packages, whose comments the minifier drops (decision 0180).
    for (const name of [
      "react",
      "react-dom",
      "@remix-run/router",
      "@remix-run/react",
      "scheduler",
    ]) {
      expect(text, name).toContain(`Name: ${name}\n`);
    }
    expect(text).toContain("Copyright (c) Facebook, Inc. and its affiliates.");
    // The browser's files carry no licence comment of their own.
    const commented = allFiles.filter((f) => read(f).toString("utf8").includes("@license"));
    expect(commented).toEqual([]);
  });

  it("ships no server-only code, and no Node built-in, in any file", () => {
    const offenders: string[] = [];
    for (const file of allFiles) {
      const text = read(file).toString("utf8");
      for (const m of SERVER_ONLY) if (text.includes(m.text)) offenders.push(`${file}: ${m.what}`);
      if (/\b(?:from|import)\s*\(?\s*["']node:/.test(text)) offenders.push(`${file}: node: import`);
    }
    // `.server` modules cannot get here at all: Remix's build fails on one reached by the browser.
    expect(offenders).toEqual([]);
  });

  it("keeps zod, the CSV parser, the link finder and the password list off the four pages", () => {
    const offenders: string[] = [];
    for (const { url, route } of PAGES) {
      for (const file of pageFiles(manifest, route)) {
        const text = read(file).toString("utf8");
        for (const m of NOT_ON_PAGES)
          if (text.includes(m.text)) offenders.push(`${url} ${file}: ${m.what}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
