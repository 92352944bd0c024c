/**
 * `db backup`, `db restore` and the backup `db migrate` takes before an upgrade, run as the
 * built binary on real embedded databases (docs/decisions/0163-backup-and-restore.md).
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import {
  CLI_ACTOR,
  createAccount,
  createDb,
  createLeague,
  type DbHandle,
  migrationsFolder,
  readBackup,
  readJournal,
  rowsOf,
  seed,
  serveDbSocket,
  storePortrait,
} from "@game/db";
import { putTeam } from "@game/db/testing";
import { sql } from "drizzle-orm";
import { migrate } from "drizzle-orm/pglite/migrator";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliTarget, cliTarget, runCli } from "../../test-support.js";

/** Every table of the game and of the migrations as a sorted row set, and every sequence. */
async function everything(h: DbHandle): Promise<Record<string, unknown>> {
  const run = async (text: string) =>
    rowsOf<Record<string, unknown>>(await h.db.execute(sql.raw(text)));
  const out: Record<string, unknown> = {};
  const tables = await run(
    "select schemaname || '.' || tablename as name from pg_tables where schemaname in ('public', 'drizzle') order by 1",
  );
  for (const { name } of tables) {
    const [row] = await run(
      `select coalesce(json_agg(t order by t::text), '[]'::json)::text as rows from ${name} t`,
    );
    out[name as string] = JSON.parse(row!.rows as string);
  }
  out.sequences = await run(
    "select schemaname, sequencename, last_value::text from pg_sequences order by 1, 2",
  );
  return out;
}

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

/** The CLI on another data folder than the target's. */
function on(t: CliTarget, dataDir: string): CliTarget {
  return { ...t, env: { ...t.env, DATA_DIR: dataDir } };
}

/** These commands are for the embedded database; on PostgreSQL only their refusal is tested. */
const embedded = it.skipIf(Boolean(process.env.DATABASE_URL));

// The test holds the database, as the running app does: the CLI goes through its socket.
let t: CliTarget;
beforeAll(async () => {
  t = await cliTarget({ hold: true });
  if (t.kind !== "pglite") return;
  const db = t.h!.db;
  await seed(db);
  const ann = await createAccount(db, {
    email: "ann@example.com",
    username: "Ann",
    passwordHash: "x",
  });
  const bo = await createAccount(db, {
    email: "bo@example.com",
    username: "Bo",
    passwordHash: "x",
  });
  const racers = rowsOf<{ id: number }>(
    await db.execute(sql`select id from racers where game_id = 5 order by id limit 6`),
  );
  await putTeam(
    db,
    ann.id,
    5,
    racers.map((r) => r.id),
  );
  await createLeague(db, { id: bo.id, email: bo.email }, "Crew");
  const png = await sharp({ create: { width: 200, height: 150, channels: 3, background: "#36a" } })
    .png()
    .toBuffer();
  await storePortrait(db, { fileName: "Loic-Bruni.png", bytes: png, actor: CLI_ACTOR });
}, 60_000);
afterAll(() => t?.close());

describe("db backup and db restore", () => {
  embedded(
    "backs up while the app holds the database and restores it into an empty folder",
    async () => {
      const file = path.join(t.dir, "game.tar.gz");
      const b = await runCli(t, "db", "backup", file);
      expect(b.stderr).toBe("");
      expect(b.code).toBe(0);
      expect(b.stdout).toBe(
        `Backed up embedded: ${t.env.DATA_DIR} (through the running app) to ${file} (${(statSync(file).size / 1048576).toFixed(1)} MB).\n`,
      );
      expect(statSync(file).mode & 0o777).toBe(0o600);

      const restored = path.join(t.dir, "restored");
      const r = await runCli(on(t, restored), "db", "restore", file);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      const journal = readJournal();
      expect(r.stdout).toBe(
        `Restored ${file} into ${restored}: the database at migration ${journal[journal.length - 1]!.tag}, 2 players. Start the app on it (a newer version upgrades it, backing it up first).\n`,
      );
      const h = await createDb({ url: "", dataDir: restored, migrate: false });
      try {
        expect(await everything(h)).toEqual(await everything(t.h!));
      } finally {
        await h.close();
      }

      // Without an app the CLI copies the folder itself, and leaves it as it found it.
      const again = await runCli(on(t, restored), "db", "backup", path.join(t.dir, "again.tar.gz"));
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toMatch(
        new RegExp(`^Backed up embedded: ${restored} to ${path.join(t.dir, "again.tar.gz")} \\(`),
      );
      expect(readdirSync(restored)).toEqual(["pgdata"]);
    },
    120_000,
  );

  embedded(
    "never restores over a database or under the running app, and changes nothing",
    async () => {
      const file = path.join(t.dir, "refused.tar.gz");
      expect((await runCli(t, "db", "backup", file)).code).toBe(0);

      // The app is running on the target's folder.
      const held = t.env.DATA_DIR!;
      const before = listing(held);
      const running = await runCli(t, "db", "restore", file);
      expect(running.code).toBe(1);
      expect(running.stderr).toContain(`error: the app is running on ${held}`);
      expect(running.stdout).toBe("");
      expect(listing(held)).toEqual(before);

      // A stopped app's folder that holds a database.
      const full = path.join(t.dir, "full");
      expect((await runCli(on(t, full), "db", "restore", file)).code).toBe(0);
      const kept = listing(full);
      const over = await runCli(on(t, full), "db", "restore", file);
      expect(over.code).toBe(1);
      expect(over.stderr).toContain(`error: ${full} already holds a database`);
      expect(over.stderr).toContain("nothing was changed");
      expect(listing(full)).toEqual(kept);
    },
    120_000,
  );

  embedded("refuses a file that is not a backup, and a backup over an existing file", async () => {
    const csv = path.join(t.dir, "racers.csv");
    writeFileSync(csv, "Category,First Name\nPro Men,Loic\n");
    const empty = path.join(t.dir, "empty");
    const notBackup = await runCli(on(t, empty), "db", "restore", csv);
    expect(notBackup.code).toBe(1);
    expect(notBackup.stderr).toBe(
      `error: ${csv} is not a backup of the embedded database: it is not a gzip'd file, or it is cut short. Backups are made by "game-admin db backup <file>".\n`,
    );
    const missing = await runCli(on(t, empty), "db", "restore", path.join(t.dir, "nowhere.gz"));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("cannot read");
    expect(existsSync(empty)).toBe(false);

    const exists = await runCli(t, "db", "backup", csv);
    expect(exists.code).toBe(1);
    expect(exists.stderr).toContain("already exists: name another file, or add --force");
    expect(readFileSync(csv, "utf8")).toContain("Pro Men");
    const forced = await runCli(t, "db", "backup", csv, "--force");
    expect(forced.code, forced.stderr).toBe(0);
    expect((await readBackup(readFileSync(csv))).files).toBeGreaterThan(100);

    // No app and no database: nothing to copy, and no empty database made to copy.
    const none = await runCli(on(t, empty), "db", "backup", path.join(t.dir, "none.tar.gz"));
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(`there is no database in ${empty}`);
    expect(existsSync(empty)).toBe(false);
  });

  it("exits 2 without a file", async () => {
    expect((await runCli(t, "db", "backup")).code).toBe(2);
    expect((await runCli(t, "db", "restore")).code).toBe(2);
  });

  it("points to pg_dump and pg_restore on PostgreSQL", async () => {
    const url = "postgres://nobody@127.0.0.1:9/game";
    const dump = path.join(t.dir, "x.dump");
    const backup = await runCli(t, "--database-url", url, "db", "backup", dump);
    expect(backup.code).toBe(2);
    expect(backup.stderr).toContain('pg_dump -Fc -f gravity-fantasy.dump "$DATABASE_URL"');
    const restore = await runCli(t, "--database-url", url, "db", "restore", dump);
    expect(restore.code).toBe(2);
    expect(restore.stderr).toContain("pg_restore --clean --if-exists --no-owner");
    expect(existsSync(dump)).toBe(false);
  });
});

describe("db migrate on an embedded database that is behind", () => {
  /** The committed migrations before 0010, as a version at migration 0009 had them. */
  const FIRST_NEW = "0010_partner-daily-stats";
  let older: string;
  const cut = () => readJournal().findIndex((e) => e.tag === FIRST_NEW);
  beforeAll(() => {
    older = path.join(t.dir, "migrations-0009");
    cpSync(migrationsFolder, older, { recursive: true });
    const journalFile = path.join(older, "meta", "_journal.json");
    const journal = JSON.parse(readFileSync(journalFile, "utf8"));
    journal.entries = journal.entries.slice(0, cut());
    writeFileSync(journalFile, JSON.stringify(journal));
  });

  embedded(
    "backs it up first, says each migration applied and how to go back",
    async () => {
      // A data folder as a version at migration 0009 left it.
      const dataDir = path.join(t.dir, "at-0009");
      mkdirSync(dataDir);
      const h = await createDb({ url: "", dataDir, migrate: false });
      try {
        await migrate(h.db as never, { migrationsFolder: older });
      } finally {
        await h.close();
      }

      const r = await runCli(on(t, dataDir), "db", "migrate");
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(`Migrations applied (embedded: ${dataDir}).\n`);
      const [backup] = readdirSync(path.join(dataDir, "backups"));
      const backupFile = path.join(dataDir, "backups", backup!);
      const pending = readJournal().slice(cut());
      const lines = r.stderr.trimEnd().split("\n");
      expect(lines[0]).toBe(
        `Database at migration 0009_partner-disabled: applying ${pending.length} migrations (0010_partner-daily-stats to ${pending[pending.length - 1]!.tag}).`,
      );
      expect(lines[1]).toMatch(/^Backed up the database to .* before upgrading\.$/);
      expect(lines[1]).toContain(backupFile);
      expect(lines.slice(2, -1)).toEqual(pending.map((e) => `Applied migration ${e.tag}.`));
      expect(lines.at(-1)).toContain(`db restore ${backupFile}`);

      // Going back: the backup restores into an empty folder as the database at 0009.
      const back = await runCli(on(t, path.join(t.dir, "back")), "db", "restore", backupFile);
      expect(back.code, back.stderr).toBe(0);
      expect(back.stdout).toContain("the database at migration 0009_partner-disabled, 0 players");

      // Up to date: nothing to say, no other backup.
      const again = await runCli(on(t, dataDir), "db", "migrate");
      expect(again.stderr).toBe("");
      expect(readdirSync(path.join(dataDir, "backups"))).toEqual([backup]);
    },
    180_000,
  );

  embedded(
    "through an older running app, has the app make the backup first",
    async () => {
      // The app (this test) holds a database at 0009 and serves it on the folder's socket.
      const dataDir = path.join(t.dir, "app-at-0009");
      mkdirSync(dataDir);
      const h = await createDb({ url: "", dataDir: "memory", migrate: false });
      await migrate(h.db as never, { migrationsFolder: older });
      const served = await serveDbSocket(h.pglite!, dataDir);
      try {
        const r = await runCli(on(t, dataDir), "db", "migrate");
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toBe(
          `Migrations applied (embedded: ${dataDir} (through the running app)).\n`,
        );
        const [backup] = readdirSync(path.join(dataDir, "backups"));
        expect(backup).toMatch(/^pre-upgrade-0009-.*\.tar\.gz$/);
        expect(r.stderr).toContain(
          `Backed up the database to ${path.join(dataDir, "backups", backup!)}`,
        );
        expect(r.stderr).toContain(`Applied migration ${FIRST_NEW}.`);
        const [level] = rowsOf<{ n: number }>(
          await h.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`),
        );
        expect(level!.n).toBe(readJournal().length);
      } finally {
        await served.close();
        await h.close();
      }
    },
    120_000,
  );
});
