// The deploy examples (deploy/: the systemd unit, its settings file, the nginx site) name only
// what exists: variables the server reads and accepts, the file the build writes, the routes the
// app serves, the cookies and pages of the ranking cache.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { PRODUCTION_START, SERVER_FILE } from "./build.js";
import { readEnv, SERVER_ENV_VARS } from "./env.js";
import { METRICS_ENV_VARS, readMetricsEnv } from "./metrics.js";
import { CACHED_PAGES, GAME_COOKIE, SESSION_COOKIE } from "./ranking-cache.js";

const webRoot = fileURLToPath(new URL("..", import.meta.url));
const deploy = path.resolve(webRoot, "../../deploy");
const read = (name: string) => readFileSync(path.join(deploy, name), "utf8");
const unit = read("gravity-fantasy.service");
const settings = read("gravity-fantasy.env");
const nginx = read("nginx.conf");

/** `Key=value` lines of a systemd unit (comments left out), every value of each key. */
function directives(text: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const line of text.split("\n")) {
    const m = /^([A-Za-z]+)=(.*)$/.exec(line.trim());
    if (!m?.[1] || m[2] === undefined) continue;
    found.set(m[1], [...(found.get(m[1]) ?? []), m[2]]);
  }
  return found;
}

/** The variables a settings file sets, and those it shows commented out. */
function assignments(text: string): { set: Map<string, string>; shown: string[] } {
  const set = new Map<string, string>();
  const shown: string[] = [];
  for (const line of text.split("\n")) {
    const m = /^(#\s*)?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (!m?.[2]) continue;
    if (m[1]) shown.push(m[2]);
    else set.set(m[2], m[3] ?? "");
  }
  return { set, shown };
}

/** Names like TRUST_PROXY or METRICS_PORT in comments (and only there: not AF_INET values). */
function namesInComments(text: string): string[] {
  return text
    .split("\n")
    .filter((line) => line.trim().startsWith("#"))
    .flatMap((line) => line.match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g) ?? []);
}

const unitDirectives = directives(unit);
const environment = new Map(
  (unitDirectives.get("Environment") ?? []).map((kv) => {
    const eq = kv.indexOf("=");
    return [kv.slice(0, eq), kv.slice(eq + 1)] as const;
  }),
);
const { set: settingsSet, shown: settingsShown } = assignments(settings);
const one = (key: string) => unitDirectives.get(key)?.[0] ?? "";

describe("deploy/ examples", () => {
  it("name only variables the server reads", () => {
    const named = new Set([
      ...environment.keys(),
      ...settingsSet.keys(),
      ...settingsShown,
      ...namesInComments(unit),
      ...namesInComments(settings),
      ...namesInComments(nginx),
    ]);
    expect(named.size).toBeGreaterThan(10);
    const known = new Set([...SERVER_ENV_VARS, "NODE_ENV"]);
    expect([...named].filter((name) => !known.has(name))).toEqual([]);
    // What a production server must set is set.
    for (const name of ["PUBLIC_URL", "SESSION_SECRET", "TRUST_PROXY", "HOST", "PORT"]) {
      expect(settingsSet.has(name), name).toBe(true);
    }
    expect(environment.get("NODE_ENV")).toBe("production");
  });

  it("set values the server accepts: it would start with them", () => {
    const vars = { ...Object.fromEntries(settingsSet), ...Object.fromEntries(environment) };
    const env = readEnv(vars as NodeJS.ProcessEnv);
    expect(env).toMatchObject({ production: true, host: "127.0.0.1", trustProxy: 1 });
    expect(env.dataDir).toBe(environment.get("DATA_DIR"));
    const metrics = readMetricsEnv(vars, env);
    // The metrics port is served, on this machine only.
    expect(METRICS_ENV_VARS).toContain("METRICS_PORT");
    expect(metrics.port).toBeGreaterThan(0);
    expect(metrics.host).toBe("127.0.0.1");
  });

  it("the unit starts the compiled server of the production folder, as its own user", () => {
    const [node, script, ...rest] = one("ExecStart").split(/\s+/);
    expect(node).toBe("/usr/bin/node");
    expect(rest).toEqual([]);
    expect(path.posix.basename(script ?? "")).toBe(SERVER_FILE);
    expect(path.posix.dirname(script ?? "")).toBe(one("WorkingDirectory"));
    // The start command of the production folder's package.json names the same file.
    expect(PRODUCTION_START).toBe(`NODE_ENV=production node ${SERVER_FILE}`);
    expect(one("EnvironmentFile")).toBe("/etc/gravity-fantasy/gravity-fantasy.env");
    expect(one("User")).toBe("gravity-fantasy");
    // The data folder is the unit's state directory (systemd makes it, the user's only).
    expect(environment.get("DATA_DIR")).toBe(`/var/lib/${one("StateDirectory")}`);
    expect(one("Restart")).toBe("on-failure");
    for (const key of ["NoNewPrivileges", "ProtectHome", "PrivateTmp"])
      expect(one(key)).toBe("yes");
    expect(one("ProtectSystem")).toBe("strict");
    // The app takes up to 15 s to stop; systemd waits longer before it kills.
    expect(Number.parseInt(one("TimeoutStopSec"), 10)).toBeGreaterThan(15);
  });

  it("nginx proxies to the app's port with the client's Host, and checks real routes", () => {
    expect(nginx).toMatch(/^\s*proxy_set_header Host \$host;/m);
    expect(nginx).toMatch(/^\s*proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;/m);
    expect(nginx).toContain(`server ${settingsSet.get("HOST")}:${settingsSet.get("PORT")};`);
    // The health routes: /readyz is the server's own, /healthz a route of the app.
    expect(nginx).toMatch(/location = \/healthz \{/);
    expect(nginx).toMatch(/location = \/readyz \{/);
    expect(readFileSync(path.join(webRoot, "server.ts"), "utf8")).toContain('"/readyz"');
    expect(existsSync(path.join(webRoot, "app/routes/healthz.ts"))).toBe(true);
    // /metrics is never answered through nginx; the metrics port is not listened on publicly.
    expect(nginx).toMatch(/location = \/metrics \{\s*return 404;/);
    const metricsPort = settingsSet.get("METRICS_PORT");
    for (const line of nginx.split("\n")) {
      if (line.trim().startsWith("listen") && line.includes(`:${metricsPort}`)) {
        throw new Error(`nginx listens on the metrics port: ${line}`);
      }
    }
  });

  it("nginx caches exactly the app's cached ranking pages, never a signed-in player's", () => {
    const m = /location ~ (\S+) \{([^}]*)\}/.exec(nginx);
    expect(m).not.toBeNull();
    const [, pattern = "", block = ""] = m ?? [];
    const cached = new RegExp(pattern);
    for (const page of CACHED_PAGES.keys()) expect(cached.test(page), page).toBe(true);
    for (const other of ["/", "/team", "/players-ranking/x", "/leagues-ranking.json", "/login"]) {
      expect(cached.test(other), other).toBe(false);
    }
    expect(block).toMatch(/proxy_cache gf_rankings;/);
    expect(nginx).toMatch(/keys_zone=gf_rankings:/);
    expect(block).toContain(`proxy_cache_bypass $cookie_${SESSION_COOKIE};`);
    expect(block).toContain(`proxy_no_cache $cookie_${SESSION_COOKIE};`);
    expect(block).toMatch(new RegExp(`proxy_cache_key [^;]*\\$cookie_${GAME_COOKIE};`));
    expect(block).toContain("proxy_cache_revalidate on;");
  });
});
