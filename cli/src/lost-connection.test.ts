/**
 * The database connection lost in the middle of a command (the server restarted, the network
 * dropped, the app serving the embedded database stopped): the CLI says so in its one line,
 * says whether anything was written, and exits 1 — never a driver's stack trace.
 *
 * The loss is real: the CLI talks to the database through a TCP relay that cuts both sides the
 * moment the CLI sends a chosen statement, so the cut lands at the same point on every run.
 */
import { racers, seed } from "@game/db";
import { cuttingRelay } from "@game/db/testing";
import { count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type CliResult, type CliTarget, cliTarget, runCli, writeFile } from "./test-support.js";

let t: CliTarget;
beforeAll(async () => {
  t = await cliTarget({ hold: true });
  await seed(t.h!.db);
});
afterAll(() => t?.close());

/** The database the CLI would use: the test database on PostgreSQL, else the app's socket. */
const databaseUrl = () => (t.kind === "postgres" ? t.env.DATABASE_URL! : t.socket!.url);

async function racersOf(gameId: number): Promise<number> {
  const [row] = await t.h!.db.select({ n: count() }).from(racers).where(eq(racers.gameId, gameId));
  return row!.n;
}

/**
 * Runs the CLI through a relay that cuts the connection when the CLI sends `at` (once it has sent
 * `after`, when given).
 */
async function cutAt(cut: { at: string; after?: string }, ...args: string[]) {
  const relay = await cuttingRelay(databaseUrl(), cut.at, { after: cut.after });
  try {
    const r = await runCli(t, "--database-url", relay.url, ...args);
    expect(relay.cut()).toBe(true);
    // One line, no driver stack trace.
    expect(r.stderr).not.toMatch(/TypeError|\n\s+at /);
    const errors = r.stderr.split("\n").filter((l) => l.startsWith("error:"));
    expect(errors).toHaveLength(1);
    // The database's address, never its password.
    const password = new URL(relay.url).password;
    if (password) expect(errors[0]).not.toContain(password);
    return { ...r, error: errors[0]! };
  } finally {
    await relay.close();
  }
}

const LOST =
  /^error: the connection to the database was lost during the command \(postgres: postgres:\/\/[^)]*@127\.0\.0\.1:\d+\/[^)]*\)/;

describe("a connection lost mid-command", () => {
  it("inside the import's transaction: nothing was written, exit 1", async () => {
    const before = await racersOf(5);
    const file = writeFile(
      t,
      "lost.csv",
      "Category,First Name,Last Name,Game ID,Price\nPro Men,Lost,Connection,5,90000\n",
    );
    const r = await cutAt({ at: 'insert into "racers"' }, "racers", "import", file);
    expect(r.code).toBe(1);
    expect(r.error).toMatch(LOST);
    expect(r.error).toMatch(
      /\): nothing was written; the change in progress was rolled back\. Run it again once the database is back\.$/,
    );
    expect(await racersOf(5)).toBe(before);
  });

  it("while committing: the change may or may not have been written", async () => {
    const before = await racersOf(6);
    const file = writeFile(
      t,
      "commit.csv",
      "Category,First Name,Last Name,Game ID,Price\nPro Men,Lost,Commit,6,90000\n",
    );
    // The import's COMMIT, after its audit entry (opening the database commits its migrations).
    const r = await cutAt(
      { at: "commit\0", after: 'insert into "audit_log"' },
      "racers",
      "import",
      file,
    );
    expect(r.code).toBe(1);
    expect(r.error).toMatch(LOST);
    expect(r.error).toMatch(
      /\) while a change was being saved: it may or may not have been written\. Check before running the command again\.$/,
    );
    // The relay never passed the COMMIT on: the server rolled the import back.
    expect(await racersOf(6)).toBe(before);
  });

  it("during a command that only reads: nothing was written", async () => {
    const r = await cutAt({ at: 'from "racers"' }, "racers", "list", "--game", "5");
    expect(r.code).toBe(1);
    expect(r.error).toMatch(LOST);
    expect(r.error).toMatch(/\): nothing was written\. Run it again once the database is back\.$/);
  });

  it("while opening the database (its migrations' COMMIT): the command did not start", async () => {
    const r = await cutAt({ at: "commit\0" }, "racers", "list", "--game", "5");
    expect(r.code).toBe(1);
    expect(r.error).toMatch(
      /^error: the connection to the database was lost while opening it \(postgres: [^)]+\): the command did not start, nothing of it was written\. Run it again once the database is back\.$/,
    );
  });

  // PostgreSQL ends a session with an error first (57P01), then closes it.
  it.runIf(process.env.DATABASE_URL)(
    "ended by the server (pg_terminate_backend) while waiting for a lock: nothing was written",
    async () => {
      const before = await racersOf(5);
      const file = writeFile(
        t,
        "terminated.csv",
        "Category,First Name,Last Name,Game ID,Price\nPro Men,Ended,Session,5,90000\n",
      );
      const h = t.h!;
      let cli: Promise<CliResult> | undefined;
      await h.db.transaction(async (tx) => {
        // The import locks event 5's racers first: it waits here, inside its transaction.
        await tx.execute(sql`select id from racers where game_id = 5 for update`);
        cli = runCli(t, "racers", "import", file);
        const waiting = async () => {
          const rows = (await h.db.execute(
            sql`select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike '%racers%'`,
          )) as unknown as { pid: number }[];
          expect(rows).toHaveLength(1);
          return rows[0]!.pid;
        };
        const pid = await vi.waitFor(waiting, { timeout: 30_000, interval: 100 });
        await h.db.execute(sql`select pg_terminate_backend(${pid})`);
      });
      const r = await cli!;
      expect(r.stderr).not.toMatch(/TypeError|\n\s+at /);
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toMatch(
        /^error: the connection to the database was lost during the command \(postgres: [^)]+\): nothing was written; the change in progress was rolled back\. Run it again once the database is back\.$/m,
      );
      expect(await racersOf(5)).toBe(before);
    },
  );
});
