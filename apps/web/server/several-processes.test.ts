// Several app processes on one database (docs/decisions/0130-several-app-processes.md): a
// cluster of two workers (WEB_CONCURRENCY=2) and a second, single-process app — another machine,
// as far as the database can tell — start at the same moment on a fresh PostgreSQL database.
// Teams freeze once, each player gets one reminder, maintenance runs once per tick, and the
// cluster drains both workers at SIGTERM. On the embedded database the app stays one process.
import { type ChildProcessWithoutNullStreams, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { createDb, type DbHandle, events, outbox, remindersSent, rowsOf } from "@game/db";
import { putTeam, withDatabase } from "@game/db/testing";
import { eq, sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeUser } from "../tests/support/context";
import { halfSentLogin, spawnApp as spawnLive } from "./spawn-app.test-support.js";

const url = process.env.DATABASE_URL ?? "";
const dirs: string[] = [];
const running = new Set<ChildProcessWithoutNullStreams>();
afterAll(() => {
  for (const child of running) child.kill("SIGKILL");
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function spawnApp(extra: Record<string, string | undefined>) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "gf-procs-"));
  dirs.push(dataDir);
  return spawnLive(
    {
      DATABASE_URL: undefined,
      WEB_CONCURRENCY: undefined,
      DATA_DIR: dataDir,
      PUBLIC_URL: "https://fantasy.example",
      ...extra,
    },
    running,
  );
}

const count = (text: string, needle: string) => text.split(needle).length - 1;

/** A GET on a new connection each time (a kept-alive one stays with the worker that took it). */
function status(port: number, path: string) {
  return new Promise<number | undefined>((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path, agent: false, timeout: 5000 }, (res) => {
        res.resume();
        resolve(res.statusCode);
      })
      .on("timeout", function (this: http.ClientRequest) {
        this.destroy(new Error(`GET ${path} timed out`));
      })
      .on("error", reject);
  });
}

describe.skipIf(!url)("two app processes racing on PostgreSQL", () => {
  const name = `gf_procs_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  let h: DbHandle;
  let cluster: ReturnType<typeof spawnApp>;
  let single: ReturnType<typeof spawnApp>;
  let players: Awaited<ReturnType<typeof makeUser>>[];
  const began = Date.now();

  beforeAll(async () => {
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database "${name}"`);
    await admin.end({ timeout: 5 });
    h = await createDb({ url: withDatabase(url, name), max: 2 });
    await (await import("@game/db")).seed(h.db);
    const now = Date.now();
    // Round 1 locked an hour ago (not frozen yet); round 2 opens and locks in 6 hours, so its
    // reminders are due now.
    await h.db
      .update(events)
      .set({ startsAt: new Date(now + 11 * 3600_000) })
      .where(eq(events.id, 5));
    await h.db
      .update(events)
      .set({ status: "open", startsAt: new Date(now + 18 * 3600_000) })
      .where(eq(events.id, 6));
    players = [];
    for (let i = 0; i < 20; i++) {
      const user = await makeUser(h.db, { username: `racer${i}_${process.pid % 10000}` });
      await putTeam(h.db, user.id, 5, [1 + i]);
      players.push(user);
    }
    const dbUrl = withDatabase(url, name);
    // Both at once: their first passes of every job race.
    cluster = spawnApp({ DATABASE_URL: dbUrl, WEB_CONCURRENCY: "2" });
    single = spawnApp({ DATABASE_URL: dbUrl });
    await Promise.all([cluster.port, single.port]);
  }, 90_000);

  afterAll(async () => {
    await h?.close();
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end({ timeout: 5 });
  });

  it("serves from two worker processes on one port, and from the second app", async () => {
    expect(cluster.output()).toMatch(/with 2 worker processes in \d+ ms/);
    expect(single.output()).not.toContain("worker processes");
    for (const app of [cluster, single]) {
      expect(await status(await app.port, "/readyz")).toBe(200);
    }
  });

  it("freezes the locked round once and reminds each player once", async () => {
    // Each app's first passes run right after start: wait until both have had theirs.
    const until = Date.now() + 30_000;
    let reminded = 0;
    let frozen = 0;
    while (Date.now() < until) {
      reminded = (await h.db.select().from(remindersSent).where(eq(remindersSent.eventId, 6)))
        .length;
      const [f] = await h.db.select().from(events).where(eq(events.id, 5));
      frozen = f!.frozenAt ? 1 : 0;
      const runs = rowsOf<{ n: number }>(
        await h.db.execute(sql`select count(distinct job)::int as n from job_runs`),
      );
      // freeze-teams, count-picks, reminders and maintenance
      if (reminded === players.length && frozen && runs[0]!.n === 4) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(frozen).toBe(1);
    const copied = rowsOf<{ n: number }>(
      await h.db.execute(sql`select count(*)::int as n from frozen_teams where event_id = 5`),
    );
    expect(copied[0]!.n).toBe(players.length);
    const logs = cluster.output() + single.output();
    expect(count(logs, "Froze the teams of event 5 ")).toBe(1);

    expect(reminded).toBe(players.length);
    const mails = await h.db.select().from(outbox);
    const round2 = mails.filter((m) => m.subject.startsWith("Pro Downhill Series Round 2"));
    expect(round2.map((m) => m.to).sort()).toEqual(players.map((p) => p.email).sort());
    expect(count(logs, `Sent ${players.length} deadline reminders for event 6.`)).toBe(1);
  });

  it("runs maintenance once per tick across the processes", async () => {
    const runs = rowsOf<{ tick: string | Date; owner: string; finished_at: string | Date | null }>(
      await h.db.execute(
        sql`select tick, owner, finished_at from job_runs where job = 'maintenance' order by tick`,
      ),
    );
    // One hour tick (two if the test crossed an hour): one run each, by one of the processes.
    const hours = new Set([began, Date.now()].map((t) => Math.floor(t / 3600_000))).size;
    expect(runs.length).toBeGreaterThanOrEqual(1);
    expect(runs.length).toBeLessThanOrEqual(hours);
    for (const run of runs) expect(run.finished_at).not.toBeNull();
    const pids = [cluster.child.pid, single.child.pid].map(String);
    expect(pids).toContain(runs[0]!.owner.split(":").at(-1));
  });

  it("replaces a worker that dies, and keeps serving meanwhile", async () => {
    const workers = () =>
      execFileSync("pgrep", ["-P", String(cluster.child.pid)], { encoding: "utf8" })
        .trim()
        .split("\n")
        .map(Number);
    const [first, second] = workers();
    process.kill(first!, "SIGKILL");
    const port = await cluster.port;
    // (A connection handed to the worker in the instant it died may be lost: ask after that.)
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await status(port, "/healthz")).toBe(200);
    const until = Date.now() + 20_000;
    while (Date.now() < until && !workers().some((pid) => pid !== first && pid !== second)) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(workers()).toHaveLength(2);
    expect(workers()).not.toContain(first);
    expect(cluster.output()).toContain(
      `Worker process ${first} stopped (signal SIGKILL); starting another.`,
    );
    // The new worker serves too once it has loaded the app, and the log says when (a loaded
    // machine takes seconds; the next test's SIGTERM must find it serving).
    const [replacement] = workers().filter((pid) => pid !== second);
    await expect
      .poll(() => cluster.output(), { timeout: 30_000, interval: 200 })
      .toContain(`Worker process ${replacement} serves.`);
    for (let i = 0; i < 4; i++) {
      expect(await status(port, "/healthz")).toBe(200);
    }
  }, 90_000);

  it("drains both workers at SIGTERM: a request in flight finishes, then exit 0", async () => {
    const port = await cluster.port;
    const login = await halfSentLogin(port);
    await new Promise((resolve) => setTimeout(resolve, 300));
    cluster.child.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 1500));
    login.finish();
    await login.ended;
    const response = login.response();
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1]);
    expect(status, response.slice(0, 300)).toBeGreaterThanOrEqual(200);
    expect(status).toBeLessThan(500);
    expect(await cluster.exited).toBe(0);
    const out = cluster.output();
    expect(out).toContain("SIGTERM: shutting down 2 workers");
    // Each worker drained and closed on its own.
    expect(out.match(/SIGTERM: shutting down(?! \d+ workers)/g)).toHaveLength(2);
    single.child.kill("SIGTERM");
    expect(await single.exited).toBe(0);
  }, 30_000);
});

describe("asking for several processes on the embedded database", () => {
  it("runs one process and says so in one line", async () => {
    const app = spawnApp({ WEB_CONCURRENCY: "3" });
    await app.port;
    const out = app.output();
    expect(
      count(
        out,
        "WEB_CONCURRENCY=3 ignored: the embedded database runs in one process. Set DATABASE_URL (PostgreSQL) to run several.\n",
      ),
    ).toBe(1);
    expect(out).not.toContain("worker processes");
    app.child.kill("SIGTERM");
    expect(await app.exited).toBe(0);
  }, 90_000);
});
