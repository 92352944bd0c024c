/**
 * The two-command contract (`npm ci && npm start`, `npm test`) on a new user's busy machine:
 * a clean install, no rebuild for a runtime setting, every package's tests run and none is
 * timed by the clock (docs/decisions/0146-two-commands-on-a-busy-machine.md).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const json = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), "utf8"));

/** The build hashes turbo would use for the app and what it builds on, under `env`. */
function buildHashes(env: Record<string, string>): Record<string, string> {
  const out = execFileSync(
    path.join(ROOT, "node_modules/.bin/turbo"),
    ["run", "build", "--filter=@game/web...", "--filter=@game/cli...", "--dry=json"],
    { cwd: ROOT, env: { ...process.env, ...env }, encoding: "utf8", maxBuffer: 64 << 20 },
  );
  const plan = JSON.parse(out) as { tasks: { taskId: string; hash: string }[] };
  return Object.fromEntries(plan.tasks.map((t) => [t.taskId, t.hash]));
}

describe("the two commands", () => {
  it("a runtime setting (port, data folder, database, public address) never invalidates the build", () => {
    const a = buildHashes({ PORT: "3000", DATA_DIR: "/srv/a", PUBLIC_URL: "http://a.test" });
    const b = buildHashes({
      PORT: "4101",
      DATA_DIR: "/srv/b",
      DATABASE_URL: "postgres://x@127.0.0.1/y",
      PUBLIC_URL: "https://b.test",
      CI: "true",
    });
    expect(Object.keys(a)).toContain("@game/web#build");
    expect(b).toEqual(a);
  });

  it("npm test runs every package's tests and reports every failure, not the first", () => {
    const { scripts } = json("package.json");
    for (const name of ["test", "test:db", "test:browser"]) {
      expect(scripts[name], name).toMatch(/^turbo run \S+ .*--continue\b/);
    }
  });

  it("no test suite is timed by vitest's 5 s default: property tests count runs, not seconds", () => {
    const configs = ["packages/core", "packages/db", "packages/widgets", "apps/web", "cli"].map(
      (dir) => path.join(dir, "vitest.config.ts"),
    );
    for (const config of configs) {
      expect(existsSync(path.join(ROOT, config)), config).toBe(true);
      const source = readFileSync(path.join(ROOT, config), "utf8");
      const timeout = Number(/testTimeout:\s*([\d_]+)/.exec(source)?.[1]?.replaceAll("_", ""));
      expect(timeout, `${config} testTimeout`).toBeGreaterThanOrEqual(30_000);
    }
  });

  it("every dependency's install script is decided in the project's own allowScripts", () => {
    const allowed = json("package.json").allowScripts ?? {};
    const lock = json("package-lock.json") as {
      packages: Record<string, { hasInstallScript?: boolean }>;
    };
    // The root ("") is the project itself: its own postinstall is ours, not a dependency's.
    const withScripts = Object.entries(lock.packages)
      .filter(([at, p]) => at !== "" && p.hasInstallScript)
      .map(([at]) => at.slice(at.lastIndexOf("node_modules/") + "node_modules/".length));
    expect(withScripts.length).toBeGreaterThan(0);
    for (const name of new Set(withScripts)) expect(allowed, name).toHaveProperty(name);
  });
});
