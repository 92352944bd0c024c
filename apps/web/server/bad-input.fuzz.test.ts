/**
 * Bad input never gets a 5xx. The built app runs as `npm start` runs it (Express, every
 * middleware, Remix, a real database: PGlite, or PostgreSQL when DATABASE_URL is set), and more
 * than 2,000 generated requests go to every route the build has, as a visitor, a player and an
 * admin: malformed bodies of every content type, ids past PostgreSQL's integer range, NULs and
 * odd characters in paths and queries. Any 5xx, or a dropped connection, fails the test with the
 * requests that caused it. The server's log must stay free of stacks and e-mail addresses.
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import { createAccount, createDb, createLeague, createSession } from "@game/db";
import type { AppLoadContext } from "@remix-run/node";
import fc from "fast-check";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serializeSessionToken } from "~/utils/session.server";
import { type RunningApp, startApp } from "../tests/support/app";

const SECRET = randomBytes(16).toString("hex");
const RUNS = Number(process.env.FUZZ_RUNS ?? 2400);
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);

let app: RunningApp;
let pgName: string | undefined;
const cookies: Record<"visitor" | "player" | "admin", string | undefined> = {
  visitor: undefined,
  player: undefined,
  admin: undefined,
};
let leagueId = 1;
let leagueCode = "x";

async function freshPostgres(url: string): Promise<string> {
  pgName = `gf_fuzz_${process.pid}_${randomBytes(4).toString("hex")}`;
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`create database "${pgName}"`);
  } finally {
    await sql.end({ timeout: 5 });
  }
  const u = new URL(url);
  u.pathname = `/${pgName}`;
  return u.toString();
}

async function dropPostgres(url: string) {
  if (!pgName) return;
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`drop database if exists "${pgName}" with (force)`);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

beforeAll(async () => {
  const pgUrl = process.env.DATABASE_URL ? await freshPostgres(process.env.DATABASE_URL) : "";
  const context = {
    env: { sessionSecret: SECRET, production: true },
  } as unknown as AppLoadContext;
  const tokens: Partial<Record<"player" | "admin", string>> = {};
  app = await startApp({
    env: { SESSION_SECRET: SECRET, ...(pgUrl ? { DATABASE_URL: pgUrl } : {}) },
    prepare: async (dataDir) => {
      const h = await createDb(pgUrl ? { url: pgUrl } : { dataDir, url: "" });
      try {
        for (const role of ["player", "admin"] as const) {
          const user = await createAccount(h.db, {
            username: `fuzz_${role}`,
            email: `fuzz_${role}@example.com`,
            passwordHash: "test:unusable",
            role,
          });
          tokens[role] = (await createSession(h.db, user.id, { now: new Date() })).token;
          if (role === "player") {
            const made = await createLeague(h.db, user, "Fuzz league");
            if (made.ok) {
              leagueId = made.league.id;
              leagueCode = made.league.joinCode;
            }
          }
        }
      } finally {
        await h.close();
      }
    },
  });
  const req = new Request("http://127.0.0.1/");
  for (const role of ["player", "admin"] as const) {
    const set = await serializeSessionToken(req, context, tokens[role]!);
    cookies[role] = set.split(";")[0];
  }
}, 120_000);

afterAll(async () => {
  await app?.stop();
  if (process.env.DATABASE_URL) await dropPostgres(process.env.DATABASE_URL);
});

// ---- What the generated requests are made of -----------------------------------------------

/** Ids a path or a field may carry: real ones, and every kind of wrong one. */
const ID_SAMPLES = [
  "1",
  "2",
  "0",
  "-1",
  "2147483647",
  "2147483648",
  "-2147483649",
  "9223372036854775808",
  "99999999999999999999999999",
  "1.5",
  "1e3",
  "0x10",
  " 1",
  "abc",
  "",
  "%00",
  "%E2%80%AE",
  "null",
  "NaN",
  "Infinity",
  "%F0%9F%9A%B5",
  "..%2F..%2Fetc",
  "a".repeat(300),
];

const FIELDS = [
  "intent",
  "_action",
  "eventId",
  "event",
  "competition",
  "game",
  "leagueId",
  "userId",
  "racerId",
  "racerIds",
  "racers",
  "id",
  "name",
  "code",
  "email",
  "emails",
  "password",
  "newPassword",
  "currentPassword",
  "token",
  "username",
  "redirectTo",
  "status",
  "startsAt",
  "origins",
  "partnerId",
  "file",
  "mode",
  "fileName",
  "records",
  "bytes",
  "page",
  "pageSize",
  "captainId",
  "partner",
];

const INTENTS = [
  "create",
  "join",
  "leave",
  "delete",
  "invite",
  "rename",
  "grant-admin",
  "revoke-admin",
  "save",
  "preview",
  "import",
  "confirm",
  "add",
  "remove",
  "rotate",
  "disable",
  "enable",
  "withdraw",
  "edit",
  "sign-out-everywhere",
  "change-password",
];

const value = fc.oneof(
  fc.constantFrom(...ID_SAMPLES.map((s) => decodeURIComponentSafe(s))),
  fc.constantFrom(...INTENTS),
  fc.constantFrom("fuzz_player@example.com", "2027-05-16T16:00", "https://evil.example", "open"),
  // NUL (PostgreSQL text cannot hold it) and a right-to-left override, alone and inside text.
  fc.constantFrom("\u0000", "a\u0000b", "fuzz_player@example.com\u0000", "\u202eevil"),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 20 }),
);

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const fields = fc.array(fc.tuple(fc.constantFrom(...FIELDS), value), { maxLength: 8 });

type Body = { contentType?: string; body?: string | Uint8Array };

const urlencoded = fields.map((pairs): Body => {
  const params = new URLSearchParams();
  for (const [k, v] of pairs) params.append(k, v);
  return { contentType: "application/x-www-form-urlencoded", body: params.toString() };
});

const multipart = fields.map((pairs): Body => {
  const boundary = "fuzzboundary";
  const parts = pairs.map(([k, v]) =>
    k === "file"
      ? `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.csv"\r\nContent-Type: text/csv\r\n\r\n${v}\r\n`
      : `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
  );
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    body: `${parts.join("")}--${boundary}--\r\n`,
  };
});

const oddBody = fc.oneof(
  fc.constant<Body>({ contentType: "multipart/form-data; boundary=x", body: "" }),
  fc.constant<Body>({ contentType: "multipart/form-data", body: "--x\r\n" }),
  fc.constant<Body>({ contentType: "multipart/form-data; boundary=x", body: "--x\r\nbroken" }),
  fc.constant<Body>({ contentType: "application/x-www-form-urlencoded", body: "%%%&=&a=%zz" }),
  fc.constant<Body>({ contentType: undefined, body: undefined }),
  fc.constant<Body>({ contentType: "application/json", body: "" }),
  fc.json().map((j): Body => ({ contentType: "application/json", body: j })),
  fc.string().map((t): Body => ({ contentType: "text/plain", body: t })),
  fc.string().map((t): Body => ({ contentType: "application/json", body: t })),
  fc.uint8Array({ maxLength: 200 }).map(
    (b): Body => ({
      contentType: "application/octet-stream",
      body: b,
    }),
  ),
  fc.uint8Array({ maxLength: 200 }).map((b): Body => ({ contentType: undefined, body: b })),
  fc
    .record({
      fileName: value,
      bytes: fc.oneof(fc.integer(), fc.string()),
      records: fc.jsonValue(),
    })
    .map((r): Body => ({ contentType: "application/json", body: JSON.stringify(r) })),
);

const body = fc.oneof(urlencoded, multipart, oddBody);

const query = fc.array(fc.tuple(fc.constantFrom(...FIELDS, "index", "login"), value), {
  maxLength: 3,
});

interface RouteInfo {
  /** A path pattern like `/racers/:id` or `/api/v1/*`. */
  pattern: string;
  hasAction: boolean;
}

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD" | "OPTIONS";
/** Methods with a body. */
const WRITES = new Set<Method>(["POST", "PUT", "PATCH", "DELETE"]);

interface FuzzRequest {
  route: string;
  path: string;
  method: Method;
  persona: keyof typeof cookies;
  body: Body;
  dataRequest: boolean;
}

/** Every route of the build, with its full path. */
async function routesOfBuild(): Promise<RouteInfo[]> {
  const build = await import("../build/server/index.js");
  const routes = build.routes as Record<
    string,
    { path?: string; parentId?: string; index?: boolean; module: Record<string, unknown> }
  >;
  const fullPath = (id: string): string => {
    const r = routes[id]!;
    const own = r.path ?? "";
    const parent = r.parentId ? fullPath(r.parentId) : "";
    return [parent, own].filter(Boolean).join("/").replace(/\/+/g, "/");
  };
  return Object.keys(routes)
    .filter((id) => id !== "root")
    .map((id) => ({
      pattern: `/${fullPath(id)}`.replace(/\/+/g, "/"),
      hasAction: typeof routes[id]!.module.action === "function",
    }));
}

function fill(pattern: string, segment: () => string): string {
  return pattern
    .split("/")
    .map((part) => (part.startsWith(":") || part === "*" ? segment() : part))
    .join("/");
}

function requestsFor(routes: RouteInfo[]): fc.Arbitrary<FuzzRequest> {
  const segment = fc.oneof(
    fc.constantFrom(...ID_SAMPLES, String(leagueId), leagueCode, "fuzz_player", "fuzz_admin"),
    fc.string({ maxLength: 12 }).map(encodeURIComponent),
  );
  return fc
    .record({
      route: fc.constantFrom(...routes),
      segments: fc.array(segment, { minLength: 3, maxLength: 3 }),
      post: fc.boolean(),
      // Mostly GET and POST (what pages send); the other methods now and then, anywhere.
      other: fc.oneof(
        { arbitrary: fc.constant(null), weight: 5 },
        {
          arbitrary: fc.constantFrom<Method>("PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"),
          weight: 1,
        },
      ),
      persona: fc.constantFrom("visitor", "player", "admin"),
      body,
      query,
      dataRequest: fc.boolean(),
    })
    .map(({ route, segments, post, other, persona, body, query, dataRequest }) => {
      let i = 0;
      const filled = fill(route.pattern, () => segments[i++ % segments.length]!);
      const params = new URLSearchParams();
      for (const [k, v] of query) params.append(k, v);
      const method: Method = other ?? (post && route.hasAction ? "POST" : "GET");
      const qs = params.toString();
      return {
        route: route.pattern,
        path: `${filled}${qs ? `?${qs}` : ""}`,
        method,
        persona: persona as FuzzRequest["persona"],
        body: WRITES.has(method) ? body : {},
        dataRequest,
      };
    });
}

/** Remix's single-fetch form of a request: `/x.data` (the root is `/_root.data`). */
function dataUrl(path: string): string {
  const [p, q] = path.split("?");
  const base = p === "/" ? "/_root" : p!.replace(/\/$/, "");
  return `${base}.data${q ? `?${q}` : ""}`;
}

async function send(r: FuzzRequest): Promise<{ status: number; error?: string }> {
  const headers = new Headers({ Origin: app.url });
  const cookie = cookies[r.persona];
  if (cookie) headers.set("Cookie", cookie);
  if (r.body.contentType) headers.set("Content-Type", r.body.contentType);
  try {
    const res = await fetch(`${app.url}${r.dataRequest ? dataUrl(r.path) : r.path}`, {
      method: r.method,
      headers,
      body: WRITES.has(r.method) ? (r.body.body as BodyInit | undefined) : undefined,
      redirect: "manual",
      signal: AbortSignal.timeout(15_000),
    });
    await res.arrayBuffer();
    return { status: res.status };
  } catch (error) {
    return { status: 0, error: String((error as Error).cause ?? error) };
  }
}

/** Answers by persona and status, to show (and check) that the requests reach the routes. */
const seenStatuses = new Map<string, number>();

async function runAll(list: FuzzRequest[], concurrency = 4) {
  const failures: { request: FuzzRequest; status: number; error?: string }[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < list.length) {
        const request = list[next++]!;
        const result = await send(request);
        const key = `${request.persona} ${request.method} ${result.status}`;
        seenStatuses.set(key, (seenStatuses.get(key) ?? 0) + 1);
        if (result.status === 0 || result.status >= 500) failures.push({ request, ...result });
      }
    }),
  );
  return failures;
}

/** Requests that can end a persona's sessions run last, so the rest keep their persona. */
const endsSessions = (r: FuzzRequest) =>
  WRITES.has(r.method) && /logout|account|password/.test(r.route);

describe("headers and limits on the running app", () => {
  const get = (path: string, cookie?: string) =>
    fetch(`${app.url}${path}`, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" });

  it("puts this response's CSP nonce on every inline script Remix renders", async () => {
    const res = await get("/");
    const csp = res.headers.get("content-security-policy") ?? "";
    const nonce = csp.match(/script-src 'self' 'nonce-([^']+)'/)?.[1];
    expect(nonce).toBeTruthy();
    const html = await res.text();
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    const again = await get("/");
    expect(again.headers.get("content-security-policy")).not.toContain(nonce);
  });

  it("sends nosniff and the referrer policy on pages, API answers and files; no HSTS on http", async () => {
    for (const path of ["/", "/api/v1/events", "/favicon.svg", "/no-such-page"]) {
      const res = await get(path);
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(res.headers.get("referrer-policy"), path).toBe("strict-origin-when-cross-origin");
      expect(res.headers.get("strict-transport-security"), path).toBeNull();
    }
  });

  it("marks pages and data for a signed-in player private, no-store, and only those", async () => {
    for (const path of ["/", "/homepage", "/_root.data", "/players-ranking"]) {
      const signedIn = await get(path, cookies.player);
      expect(signedIn.headers.get("cache-control"), path).toBe("private, no-store");
      const visitor = await get(path);
      expect(visitor.headers.get("cache-control") ?? "", path).not.toContain("no-store");
    }
    // A cookie that names no session is a visitor.
    const forged = await get("/", `${cookies.player!.split("=")[0]}=forged`);
    expect(forged.headers.get("cache-control") ?? "").not.toContain("no-store");
  });

  it("refuses a 100 MB post to /leagues/actions at once, before the sign-in check reads it", async () => {
    const started = Date.now();
    const status = await new Promise<number>((resolve, reject) => {
      const { hostname, port } = new URL(app.url);
      const req = http.request(
        {
          host: hostname,
          port,
          path: "/leagues/actions",
          method: "POST",
          headers: {
            Origin: app.url,
            "Content-Type": "application/x-www-form-urlencoded",
            "Content-Length": String(100 * 1024 * 1024),
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      // Headers only: the answer can only come from refusing before the body.
      req.flushHeaders();
    });
    expect(status).toBe(413);
    // Refused before any body: far sooner than a server would give up waiting for one.
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it("refuses a streamed body (no Content-Length) once it passes 64 KB", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const { hostname, port } = new URL(app.url);
      const req = http.request(
        {
          host: hostname,
          port,
          path: "/login",
          method: "POST",
          headers: {
            Origin: app.url,
            "Content-Type": "application/x-www-form-urlencoded",
            "Transfer-Encoding": "chunked",
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", (e: NodeJS.ErrnoException) =>
        e.code === "ECONNRESET" || e.code === "EPIPE" ? undefined : reject(e),
      );
      const chunk = `email=${"a".repeat(16 * 1024)}&`;
      for (let i = 0; i < 8; i++) req.write(chunk);
      req.end();
    });
    expect(status).toBe(413);
  });
});

describe("bad input is answered with a 4xx, never a 5xx", () => {
  it("the issue's reproductions", async () => {
    const cases: FuzzRequest[] = [];
    const add = (
      path: string,
      persona: FuzzRequest["persona"],
      method: "GET" | "POST" = "GET",
      b: Body = {},
    ) => cases.push({ route: path, path, method, persona, body: b, dataRequest: false });
    for (const persona of ["visitor", "player"] as const) {
      add("/racers/2147483648", persona);
      add("/view-racers?game=2147483648", persona);
      add("/team-setup?game=2147483648", persona);
      add("/players/%00", persona);
      add("/api/v1/teams/%00", persona);
      for (const action of ["/leagues/actions", "/login", "/signup", "/team-setup?game=1"]) {
        add(action, persona, "POST", { contentType: "application/json", body: '{"a":1}' });
        add(action, persona, "POST", { contentType: "text/plain", body: "hello" });
        add(action, persona, "POST", { contentType: "multipart/form-data; boundary=x", body: "" });
      }
    }
    for (const path of ["/admin/users", "/admin/events", "/admin/partners", "/admin/racers"]) {
      for (const id of ["2147483648", "-1", "99999999999999999999"]) {
        for (const field of ["userId", "eventId", "racerId", "partnerId", "id"]) {
          add(path, "admin", "POST", {
            contentType: "application/x-www-form-urlencoded",
            body: new URLSearchParams({
              intent: "grant-admin",
              [field]: id,
              status: "open",
            }).toString(),
          });
        }
      }
    }
    const failures = await runAll(cases);
    expect(failures).toEqual([]);
    // An id past the integer range is answered like an unknown id inside it: the page's own
    // not-found behaviour (404, or the current game for `?game=`).
    for (const persona of ["visitor", "player"] as const) {
      for (const [path, twin] of [
        ["/racers/2147483648", "/racers/2147483647"],
        ["/view-racers?game=2147483648", "/view-racers?game=2147483647"],
        ["/team-setup?game=2147483648", "/team-setup?game=2147483647"],
        ["/players/%00", "/players/nobody-here"],
      ] as const) {
        const base = { route: path, method: "GET", persona, body: {}, dataRequest: false } as const;
        const [a, b] = [await send({ ...base, path }), await send({ ...base, path: twin })];
        expect(a.status, `${path} as ${persona}`).toBe(b.status);
        expect(a.status).toBeLessThan(500);
      }
    }
    expect((await send({ ...cases[4]!, persona: "visitor" })).status).toBe(404);
  });

  it(`${RUNS} generated requests over every route, as visitor, player and admin`, async () => {
    const routes = await routesOfBuild();
    expect(routes.length).toBeGreaterThan(30);
    const list = fc.sample(requestsFor(routes), { numRuns: RUNS, seed: SEED });
    list.sort((a, b) => Number(endsSessions(a)) - Number(endsSessions(b)));
    const failures = await runAll(list);
    if (process.env.FUZZ_REPORT) console.log([...seenStatuses].sort());
    const report = failures
      .slice(0, Number(process.env.FUZZ_REPORT ?? 20))
      .map(
        (f) =>
          `${f.status} ${f.request.method} ${f.request.path} as ${f.request.persona} ${JSON.stringify(f.request.body).slice(0, 200)} ${f.error ?? ""}`,
      )
      .join("\n");
    expect(failures.length, `server errors (seed ${SEED}):\n${report}`).toBe(0);
    // The personas worked: signed-in pages answered 200 for the player and the admin, and
    // actions were reached (a refused form is a 400; the same-origin check passed).
    for (const persona of ["visitor", "player", "admin"]) {
      expect(seenStatuses.get(`${persona} GET 200`), persona).toBeGreaterThan(50);
      expect(seenStatuses.get(`${persona} POST 400`), persona).toBeGreaterThan(20);
    }
    expect(seenStatuses.get("player POST 403") ?? 0).toBeGreaterThan(0);
  }, 120_000);

  it("logged nothing but one-line errors, with no e-mail addresses", () => {
    const out = app.output();
    if (process.env.FUZZ_REPORT) console.log(out);
    expect(out).not.toMatch(/\n\s+at /);
    expect(out).not.toMatch(/fuzz_(player|admin)@example\.com/);
  });
});

describe("rate limits", () => {
  it("answer 429 with Retry-After (seconds) once the API limit is reached", async () => {
    let limited: Response | undefined;
    for (let i = 0; i < 200 && !limited; i++) {
      const res = await fetch(`${app.url}/api/v1/events`);
      await res.arrayBuffer();
      if (res.status === 429) limited = res;
    }
    expect(limited?.status).toBe(429);
    expect(limited?.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
  });

  it("answer a login form's 429 with the limit's exact Retry-After, page and data request alike", async () => {
    for (const path of ["/login", "/login.data"]) {
      let limited: Response | undefined;
      for (let i = 0; i < 60 && !limited; i++) {
        const res = await fetch(`${app.url}${path}`, {
          method: "POST",
          headers: { Origin: app.url, "Content-Type": "application/x-www-form-urlencoded" },
          // One e-mail: its own limit (10 tries) comes before the client's (30).
          body: new URLSearchParams({ email: "guess@example.com", password: `wrong-wrong-${i}` }),
          redirect: "manual",
        });
        await res.arrayBuffer();
        if (res.status === 429) limited = res;
      }
      expect(limited?.status, path).toBe(429);
      // The login limits' window is 15 minutes: more than the one-minute default for a bare 429.
      expect(Number(limited?.headers.get("retry-after")), path).toBeGreaterThan(60);
    }
  });
});
