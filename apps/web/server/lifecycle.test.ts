// Start and stop of the built app (`node build/server.js`), as operators meet them
// (docs/decisions/0071-outages-and-shutdown.md): a start with the database down retries then
// fails with one line; a shutdown lets a request in flight finish and refuses new ones.
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { halfSentLogin, spawnApp as spawnLive } from "./spawn-app.test-support.js";

const dirs: string[] = [];
const running = new Set<ChildProcessWithoutNullStreams>();
afterAll(() => {
  for (const child of running) child.kill("SIGKILL");
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function spawnApp(extra: Record<string, string | undefined> = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "gf-life-"));
  dirs.push(dataDir);
  return spawnLive({ DATABASE_URL: undefined, DATA_DIR: dataDir, ...extra }, running);
}

/** A port nothing listens on. */
async function closedPort() {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("not listening on TCP");
  const { port } = address;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Opens a TCP connection, or resolves the error code (ECONNREFUSED when nobody accepts). */
function connect(port: number) {
  return new Promise<net.Socket | string>((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => resolve(socket));
    socket.once("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
  });
}

describe("starting with the database down", () => {
  it("retries with a clear line per attempt, then exits 1 with one line and no stack", async () => {
    const port = await closedPort();
    const started = Date.now();
    const app = spawnApp({
      DATABASE_URL: `postgres://app:secret@127.0.0.1:${port}/game`,
      DATABASE_START_TIMEOUT: "2",
    });
    expect(await app.exited).toBe(1);
    expect(Date.now() - started).toBeLessThan(20_000);
    const out = app.output();
    expect(out).toMatch(/Database not reachable at .*; retrying in 1 s \(attempt 1\)\./);
    const last = out.trim().split("\n").at(-1);
    expect(last).toMatch(
      /^Database not reachable at postgres:\/\/app:\*\*\*@127\.0\.0\.1:\d+\/game after \d+ attempts in \d s \(.*ECONNREFUSED.*\)\. Check DATABASE_URL and that PostgreSQL is running\.$/,
    );
    expect(out).not.toMatch(/\n\s+at /);
    expect(out).not.toContain("secret");
  }, 60_000);
});

describe("shutting down", () => {
  it("lets a request in flight finish, refuses new connections, then exits 0", async () => {
    const app = spawnApp();
    const port = await app.port;
    // A sign-in whose body is still arriving when the signal comes: a request in flight.
    const login = await halfSentLogin(port);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const t0 = Date.now();
    app.child.kill("SIGTERM");
    // Stops accepting at once...
    let refused: string | undefined;
    for (let i = 0; i < 50 && refused !== "ECONNREFUSED"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const other = await connect(port);
      if (typeof other === "string") refused = other;
      else other.destroy();
    }
    expect(refused).toBe("ECONNREFUSED");
    // ...while the request in flight still gets its whole answer (2 s later).
    await new Promise((resolve) => setTimeout(resolve, 2000));
    login.finish();
    await login.ended;
    const response = login.response();
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1]);
    expect(status, response.slice(0, 300)).toBeGreaterThanOrEqual(200);
    expect(status).toBeLessThan(500);
    expect(response).toMatch(/\r\n\r\n/);
    expect(await app.exited).toBe(0);
    expect(Date.now() - t0).toBeLessThan(12_000);
    expect(app.output()).toContain("SIGTERM: shutting down");
  }, 90_000);
});
