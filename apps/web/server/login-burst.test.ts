// A burst of failed logins against the built app (`node build/server.js`): the password checks take
// turns, the ones past the queue are answered 429 with Retry-After at once, and the app keeps
// serving its files and /healthz (docs/decisions/0150-abuse-proof-load.md). How fast is
// measured by bench/login-burst, not here.
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnApp } from "./spawn-app.test-support.js";

const running = new Set<ChildProcessWithoutNullStreams>();
let dataDir: string;
let base: string;
beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "gf-burst-"));
  const app = spawnApp({ DATABASE_URL: undefined, DATA_DIR: dataDir }, running);
  base = `http://127.0.0.1:${await app.port}`;
});
afterAll(() => {
  for (const child of running) child.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

function login(i: number) {
  return fetch(`${base}/login`, {
    method: "POST",
    headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email: `nobody${i}@example.com`, password: "not-the-password" }),
    redirect: "manual",
  });
}

describe("a burst of failed logins from one client", () => {
  it("checks two at a time and answers the rest 429 with Retry-After, while files and /healthz are served", async () => {
    const home = await (await fetch(base)).text();
    const asset = home.match(/\/assets\/[\w.-]+\.js/)?.[0];
    expect(asset).toBeDefined();

    const burst = Array.from({ length: 10 }, (_, i) => login(i));
    const [health, script] = await Promise.all([
      fetch(`${base}/healthz`),
      fetch(`${base}${asset}`),
    ]);
    expect(health.status).toBe(200);
    expect(script.status).toBe(200);
    expect(script.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");

    const answers = await Promise.all(burst);
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(2);
    expect(statuses.filter((s) => s === 429)).toHaveLength(8);
    for (const r of answers.filter((a) => a.status === 429)) {
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(await r.text()).toContain("Too many sign-ins at this moment.");
    }
  }, 60_000);
});
