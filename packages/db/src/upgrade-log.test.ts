/**
 * Upgrading a database on the PostgreSQL server (DATABASE_URL): each migration is logged, and the
 * backup is left to pg_dump. The embedded database's upgrade (a backup first) is in
 * backup.test.ts, which CI's PostgreSQL pass does not repeat (vitest.postgres.config.ts).
 */
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { createDb } from "./client.js";
import { migrationsBefore } from "./fixtures/migration-db.js";
import { readJournal } from "./migration-level.js";
import { withDatabase } from "./testing.js";

describe.runIf(process.env.DATABASE_URL)("an upgrade on PostgreSQL", () => {
  it("on PostgreSQL logs each migration applied, and leaves the backup to pg_dump", async () => {
    const server = process.env.DATABASE_URL!;
    const name = `gf_upgrade_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = postgres(server, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database "${name}"`);
    const url = withDatabase(server, name);
    const older = migrationsBefore("0010_partner-daily-stats");
    try {
      const client = postgres(url, { max: 1, onnotice: () => {} });
      try {
        await migratePostgres(drizzlePostgres(client), { migrationsFolder: older.folder });
      } finally {
        await client.end({ timeout: 5 });
      }
      const lines: string[] = [];
      const h = await createDb({ url, log: (l) => lines.push(l) });
      await h.close();
      const journal = readJournal();
      const pending = journal.slice(journal.findIndex((e) => e.tag === "0010_partner-daily-stats"));
      expect(lines).toEqual([
        `Database at migration 0009_partner-disabled: applying ${pending.length} migrations (0010_partner-daily-stats to ${pending[pending.length - 1]!.tag}).`,
        ...pending.map((e) => `Applied migration ${e.tag}.`),
      ]);
    } finally {
      older.remove();
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end({ timeout: 5 });
    }
  }, 120_000);
});
