/**
 * Backup and restore of the embedded database (docs/decisions/0163-backup-and-restore.md): a
 * played game copied and restored into a new folder is the same database row for row; a copy
 * taken through the admin socket while the app and a client write holds whole transactions only;
 * a folder holding a database is never restored over; an upgrade backs up first and says what it
 * applied and how to go back. Real databases on disk, no mocks.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import type { Category } from "@game/core";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import postgres from "postgres";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BackupError,
  backupThroughApp,
  dumpEmbedded,
  holdsDatabase,
  readBackup,
  restoreEmbedded,
  saveBackup,
} from "./backup.js";
import { createDb, type DbHandle, rowsOf } from "./client.js";
import { lockDataDir } from "./data-dir-lock.js";
import { serveDbSocket } from "./db-socket.js";
import { migrationsBefore } from "./fixtures/migration-db.js";
import { readJournal } from "./migration-level.js";
import { seed } from "./seed.js";
import { CLI_ACTOR } from "./services/audit.js";
import { storePortrait } from "./services/portraits.js";
import { makePlayers, putLeague, putResults, putTeam } from "./services/scoring.fixtures.js";
import { settleEvent } from "./services/scoring.js";

const root = mkdtempSync(path.join(tmpdir(), "gf-backup-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

type Run = (text: string) => Promise<Record<string, unknown>[]>;
const runOn =
  (h: DbHandle): Run =>
  async (text) =>
    rowsOf<Record<string, unknown>>(await h.db.execute(sql.raw(text)));

/** Every table of the game and of the migrations, as a sorted row set, and every sequence. */
async function everything(run: Run): Promise<Record<string, unknown>> {
  const tables = await run(
    "select schemaname || '.' || tablename as name from pg_tables where schemaname in ('public', 'drizzle') order by 1",
  );
  const out: Record<string, unknown> = {};
  for (const { name } of tables) {
    const [{ rows }] = (await run(
      `select coalesce(json_agg(t order by t::text), '[]'::json)::text as rows from ${name} t`,
    )) as [{ rows: string }];
    out[name as string] = JSON.parse(rows);
  }
  out.sequences = await run(
    "select schemaname, sequencename, last_value::text from pg_sequences order by 1, 2",
  );
  return out;
}

const rowCount = (all: Record<string, unknown>, table: string) =>
  (all[`public.${table}`] as unknown[]).length;

/** Names, sizes and times of every file under `dir`: to show a folder was not touched. */
function listing(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string) => {
    for (const name of readdirSync(at).sort()) {
      const file = path.join(at, name);
      const s = statSync(file);
      out.push(`${path.relative(dir, file)} ${s.size} ${s.mtimeMs}`);
      if (s.isDirectory()) walk(file);
    }
  };
  walk(dir);
  return out;
}

// A played game in a data folder on disk: players, teams at their prices paid, a settled round
// with results, a league, a portrait.
const playedDir = path.join(root, "played");
let played: Record<string, unknown>;
let backup: Buffer;
const newDatabaseLog: string[] = [];

beforeAll(async () => {
  const h = await createDb({ url: "", dataDir: playedDir, log: (l) => newDatabaseLog.push(l) });
  try {
    await seed(h.db);
    const players = await makePlayers(h.db, ["ann", "bo", "cy"]);
    const racers = rowsOf<{ id: number; category: Category }>(
      await h.db.execute(sql`select id, category from racers where game_id = 5 order by id`),
    );
    // Prices change after Ann bought: a team keeps what was paid.
    await putTeam(
      h.db,
      players[0]!.id,
      5,
      racers.slice(0, 6).map((r) => r.id),
    );
    await h.db.execute(sql`update racers set price = price + 5000 where game_id = 5`);
    await putTeam(
      h.db,
      players[1]!.id,
      5,
      racers.slice(2, 8).map((r) => r.id),
    );
    await putResults(
      h.db,
      5,
      racers.slice(0, 10).map((r, i) => ({
        racerId: r.id,
        category: r.category,
        status: "finished" as const,
        position: i + 1,
      })),
    );
    await putLeague(
      h.db,
      "Crew",
      players.map((p) => p.id),
    );
    await settleEvent(h.db, 5, { now: new Date("2030-01-01T00:00:00Z") });
    const png = await sharp({
      create: { width: 200, height: 150, channels: 3, background: "#3366aa" },
    })
      .png()
      .toBuffer();
    const stored = await storePortrait(h.db, {
      fileName: "Loic-Bruni.png",
      bytes: png,
      actor: CLI_ACTOR,
    });
    expect(stored.status).toBe("stored");
    played = await everything(runOn(h));
    backup = await dumpEmbedded(h.pglite!);
  } finally {
    await h.close();
  }
}, 180_000);

describe("a backup of the embedded database", () => {
  it("is a gzip'd tar of a PostgreSQL data folder; a new database logs no upgrade", async () => {
    const contents = await readBackup(backup);
    expect(contents.pgVersion).toMatch(/^\d+$/);
    expect(contents.files).toBeGreaterThan(100);
    expect(newDatabaseLog).toEqual([]);
    expect(existsSync(path.join(playedDir, "backups"))).toBe(false);
  });

  it("restores into a new folder as the same database, row for row", async () => {
    // The game was really played: each kind of data is there to compare.
    for (const table of [
      "users",
      "teams",
      "team_racers",
      "race_results",
      "event_scores",
      "leagues",
      "league_members",
      "racer_portraits",
    ]) {
      expect(rowCount(played, table), table).toBeGreaterThan(0);
    }
    const file = path.join(root, "played.tar.gz");
    await saveBackup(file, backup);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const target = path.join(root, "restored");
    const summary = await restoreEmbedded(readFileSync(file), target);
    const journal = readJournal();
    expect(summary).toMatchObject({
      dataDir: target,
      level: journal[journal.length - 1]!.tag,
      players: rowCount(played, "users"),
    });
    // Nothing of the restore is left open or readable by others.
    expect(readdirSync(target)).toEqual(["pgdata"]);
    expect(statSync(path.join(target, "pgdata", "PG_VERSION")).mode & 0o077).toBe(0);

    const h = await createDb({ url: "", dataDir: target, migrate: false });
    try {
      expect(await everything(runOn(h))).toEqual(played);
      // And it goes on as a database: new rows take the next ids.
      const [next] = rowsOf<{ id: number }>(
        await h.db.execute(
          sql`insert into accounts (email, password_hash) values ('new@example.com', 'x') returning id`,
        ),
      );
      const ids = (played["public.accounts"] as { id: number }[]).map((a) => a.id);
      expect(next!.id).toBeGreaterThan(Math.max(...ids));
    } finally {
      await h.close();
    }
  }, 120_000);

  it("is refused over a folder that holds a database, changing nothing", async () => {
    expect(holdsDatabase(playedDir)).toBe(true);
    const before = listing(playedDir);
    await expect(restoreEmbedded(backup, playedDir)).rejects.toThrow(
      /already holds a database.*nothing was changed/,
    );
    expect(listing(playedDir)).toEqual(before);

    // A folder with an empty database folder and a stray file of the app's is fine to restore
    // into; the same folder in use by a process is not.
    const held = path.join(root, "held");
    mkdirSync(path.join(held, "pgdata"), { recursive: true });
    writeFileSync(path.join(held, "session-secret"), "s");
    const lock = lockDataDir(held);
    try {
      // This very process holds it, as a running app would.
      await expect(restoreEmbedded(backup, held)).rejects.toThrow(/in use by process/);
      expect(readdirSync(path.join(held, "pgdata"))).toEqual([]);
    } finally {
      lock.release();
    }
  });

  it("refuses a file that is not a whole backup, saying why", async () => {
    const target = path.join(root, "never");
    const cases: [Uint8Array, RegExp][] = [
      [Buffer.from("team,racer\n1,2\n"), /not a gzip'd file/],
      [gzipSync(Buffer.from("hello")), /not a tar archive/],
      [backup.subarray(0, backup.length >> 1), /cut short/],
    ];
    for (const [bytes, reason] of cases) {
      await expect(restoreEmbedded(bytes, target)).rejects.toThrow(BackupError);
      await expect(readBackup(bytes)).rejects.toThrow(reason);
    }
    expect(existsSync(target)).toBe(false);
  });

  it("made by another PostgreSQL version does not start, and leaves the folder as it was", async () => {
    const tar = gunzipSync(backup);
    // The first entry is PG_VERSION: its data block follows the 512-byte header.
    expect(tar.subarray(0, 11).toString()).toBe("/PG_VERSION");
    tar.write("17\n", 512, "latin1");
    const target = path.join(root, "other-version");
    mkdirSync(path.join(target, "pgdata"), { recursive: true });
    await expect(restoreEmbedded(gzipSync(tar), target)).rejects.toThrow(
      /PostgreSQL 17 data.*did not start.*left as it was/,
    );
    expect(readdirSync(target)).toEqual(["pgdata"]);
    expect(readdirSync(path.join(target, "pgdata"))).toEqual([]);
  }, 60_000);
});

describe("a backup through the running app's socket", () => {
  it("holds whole transactions only, while the app and a socket client keep writing", async () => {
    // The app's side: an open embedded database served on a data folder's socket, as the app
    // does (in memory: what the socket serves is the same).
    const h = await createDb({ url: "", dataDir: "memory" });
    const socketDir = path.join(root, "socket");
    mkdirSync(socketDir);
    const server = await serveDbSocket(h.pglite!, socketDir);
    const client = postgres(server.url, { max: 1, onnotice: () => {} });
    try {
      await h.db.execute(sql`create table pairs (n int not null, half int not null)`);
      let done = false;
      // Each writer adds both halves of a pair in one transaction, until the backup is taken.
      const appWriter = (async () => {
        for (let n = 0; !done && n < 100_000; n++) {
          // Between two requests the app lets I/O in: the socket's clients get their turns.
          await new Promise((resolve) => setImmediate(resolve));
          await h.db.transaction(async (tx) => {
            await tx.execute(sql`insert into pairs values (${n}, 1)`);
            await tx.execute(sql`insert into pairs values (${n}, 2)`);
          });
        }
      })();
      const clientWriter = (async () => {
        for (let n = -1; !done && n > -100_000; n--) {
          await client.begin(async (tx) => {
            await tx`insert into pairs values (${n}, 1)`;
            await tx`insert into pairs values (${n}, 2)`;
          });
        }
      })();
      // Let both write a little first (by rows, not by time).
      for (;;) {
        const [counts] = rowsOf<{ app: number; cli: number }>(
          await h.db.execute(
            sql`select count(*) filter (where n >= 0)::int as app, count(*) filter (where n < 0)::int as cli from pairs`,
          ),
        );
        if (counts!.app >= 20 && counts!.cli >= 20) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const copy = await backupThroughApp(server.url);
      done = true;
      await Promise.all([appWriter, clientWriter]);

      const target = path.join(root, "from-socket");
      await restoreEmbedded(copy, target);
      const restored = await PGlite.create(path.join(target, "pgdata"));
      try {
        const { rows } = await restored.query<{ n: number; halves: number }>(
          "select n, count(*)::int as halves from pairs group by n",
        );
        expect(rows.length).toBeGreaterThanOrEqual(40);
        expect(rows.filter((r) => r.halves !== 2)).toEqual([]);
      } finally {
        await restored.close();
      }
      // The socket serves on as before.
      expect(await client`select count(*)::int as n from pairs`).toEqual([
        { n: expect.any(Number) },
      ]);
    } finally {
      await client.end({ timeout: 5 });
      await server.close();
      await h.close();
    }
  }, 120_000);
});

describe("an upgrade of an embedded database", () => {
  it("backs up first, logs each migration applied and how to go back", async () => {
    const dataDir = path.join(root, "at-0009");
    const older = migrationsBefore("0010_partner-daily-stats");
    try {
      // A data folder as a version at migration 0009 left it, with a player.
      mkdirSync(dataDir);
      const pglite = await PGlite.create(path.join(dataDir, "pgdata"));
      await migrate(drizzle(pglite), { migrationsFolder: older.folder });
      await pglite.exec(`
        insert into accounts (id, email, password_hash) overriding system value
          values (10, 'al@example.com', 'x');
        insert into users (id, email, username, username_key) values (10, 'al@example.com', 'Al', 'al');`);
      await pglite.close();
    } finally {
      older.remove();
    }

    const lines: string[] = [];
    const h = await createDb({ url: "", dataDir, log: (l) => lines.push(l) });
    await h.close();

    const journal = readJournal();
    const pending = journal.slice(journal.findIndex((e) => e.tag === "0010_partner-daily-stats"));
    const [file] = readdirSync(path.join(dataDir, "backups"));
    expect(file).toMatch(/^pre-upgrade-0009-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.tar\.gz$/);
    const backupFile = path.join(dataDir, "backups", file!);
    expect(statSync(backupFile).mode & 0o777).toBe(0o600);
    expect(lines).toEqual([
      `Database at migration 0009_partner-disabled: applying ${pending.length} migrations (0010_partner-daily-stats to ${pending[pending.length - 1]!.tag}).`,
      expect.stringMatching(
        new RegExp(
          `^Backed up the database to ${backupFile} \\(\\d+\\.\\d MB\\) before upgrading\\.$`,
        ),
      ),
      ...pending.map((e) => `Applied migration ${e.tag}.`),
      `To go back to 0009_partner-disabled: stop the app, move ${path.join(dataDir, "pgdata")} aside, run "game-admin --data-dir ${dataDir} db restore ${backupFile}" and start the previous version.`,
    ]);

    // The backup is the database as it was: at 0009, with its player.
    const restored = await restoreEmbedded(readFileSync(backupFile), path.join(root, "back"));
    expect(restored).toMatchObject({ level: "0009_partner-disabled", players: 1 });

    // Once upgraded, a start has nothing to say and takes no backup.
    const again: string[] = [];
    const h2 = await createDb({ url: "", dataDir, log: (l) => again.push(l) });
    await h2.close();
    expect(again).toEqual([]);
    expect(readdirSync(path.join(dataDir, "backups"))).toEqual([file]);
  }, 180_000);
});
