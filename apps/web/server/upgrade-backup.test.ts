// Upgrades and backups end to end (docs/decisions/0163-backup-and-restore.md): the built app
// (`node build/server.js`, as `npm start` runs it) on a data folder an older version left at migration
// 0009 backs it up before migrating and logs each migration and how to go back; the admin CLI
// backs up the running app's database and restores it into an empty folder.
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createDb, type JournalEntry, migrationsFolder, readJournal } from "@game/db";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { afterAll, describe, expect, it } from "vitest";
import { runCli as runCliOn } from "../tests/support/cli";
import { spawnApp } from "./spawn-app.test-support.js";

const root = mkdtempSync(path.join(tmpdir(), "gf-upgrade-"));
const running = new Set<ChildProcessWithoutNullStreams>();
afterAll(() => {
  for (const child of running) child.kill("SIGKILL");
  rmSync(root, { recursive: true, force: true });
});

/** `game-admin ...args` on `dataDir` (the embedded database, through the app when it runs). */
const runCli = (dataDir: string, ...args: string[]) => runCliOn({ dataDir }, ...args);

/** A data folder as a version at migration `before` (not applied) left it. */
async function folderBefore(dataDir: string, before: string) {
  const older = path.join(root, `migrations-before-${before}`);
  cpSync(migrationsFolder, older, { recursive: true });
  const journalFile = path.join(older, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: JournalEntry[] };
  journal.entries = journal.entries.slice(
    0,
    journal.entries.findIndex((e) => e.tag === before),
  );
  writeFileSync(journalFile, JSON.stringify(journal));
  mkdirSync(dataDir);
  const h = await createDb({ url: "", dataDir, migrate: false });
  try {
    await migrate(drizzle(h.pglite!), { migrationsFolder: older });
  } finally {
    await h.close();
  }
}

describe("an app started on an older data folder", () => {
  it("backs it up, logs each migration and how to go back; the CLI backs up the running app", async () => {
    const dataDir = path.join(root, "data");
    await folderBefore(dataDir, "0010_partner-daily-stats");

    const app = spawnApp(
      { DATABASE_URL: undefined, DATA_DIR: dataDir, PUBLIC_URL: undefined },
      running,
    );
    await app.port;
    const [backup] = readdirSync(path.join(dataDir, "backups"));
    const backupFile = path.join(dataDir, "backups", backup!);
    const journal = readJournal();
    const pending = journal.slice(journal.findIndex((e) => e.tag === "0010_partner-daily-stats"));
    const out = app.output();
    expect(out).toContain(
      `Database at migration 0009_partner-disabled: applying ${pending.length} migrations (0010_partner-daily-stats to ${pending.at(-1)!.tag}).`,
    );
    expect(out).toMatch(
      new RegExp(`Backed up the database to ${backupFile} \\(\\d+\\.\\d MB\\) before upgrading\\.`),
    );
    for (const { tag } of pending) expect(out).toContain(`Applied migration ${tag}.\n`);
    expect(out).toContain(
      `To go back to 0009_partner-disabled: stop the app, move ${path.join(dataDir, "pgdata")} aside, run "game-admin --data-dir ${dataDir} db restore ${backupFile}" and start the previous version.`,
    );
    // The backup was written before the first migration ran.
    expect(out.indexOf("Backed up")).toBeLessThan(out.indexOf("Applied migration"));

    // While it runs, the CLI's backup is made by the app, through its socket.
    const file = path.join(root, "live.tar.gz");
    const live = await runCli(dataDir, "db", "backup", file);
    expect(live.code, live.stderr).toBe(0);
    expect(live.stdout).toContain(
      `Backed up embedded: ${dataDir} (through the running app) to ${file}`,
    );
    // ...and no restore goes under it.
    const under = await runCli(dataDir, "db", "restore", file);
    expect(under.code).toBe(1);
    expect(under.stderr).toContain("the app is running");

    app.child.kill("SIGTERM");
    expect(await app.exited).toBe(0);

    // The live backup is the upgraded, seeded database; the one before the upgrade is at 0009.
    const restored = await runCli(path.join(root, "restored"), "db", "restore", file);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toContain(`the database at migration ${journal.at(-1)!.tag}`);
    const back = await runCli(path.join(root, "back"), "db", "restore", backupFile);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toContain("the database at migration 0009_partner-disabled");
  }, 240_000);
});
