/**
 * Where a database stands among the committed migrations: the last one applied and those a start
 * would apply, by drizzle's own rule (a migration is applied when it is newer, by its journal time,
 * than the last one recorded in `drizzle.__drizzle_migrations`). Upgrades say what they do with it
 * and name their backups after it (docs/decisions/0163-backup-and-restore.md).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { migrationsFolder } from "./paths.js";

export interface JournalEntry {
  tag: string;
  /** drizzle's `folderMillis`: the time recorded as `created_at` once applied. */
  when: number;
}

export interface MigrationLevel {
  /**
   * The last migration applied (its tag, "0009_partner-disabled"); null for a database without
   * any (new, or never migrated). A migration this version does not know (a newer version's) is
   * named by its time.
   */
  current: string | null;
  /** The migrations a migrate would apply, in order. */
  pending: string[];
}

/** The committed migrations, in order. */
export function readJournal(folder = migrationsFolder): JournalEntry[] {
  const journal = JSON.parse(readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")) as {
    entries: JournalEntry[];
  };
  return journal.entries.map(({ tag, when }) => ({ tag, when }));
}

/** The level of a database whose last recorded migration has `lastCreatedAt` (null: none). */
export function migrationLevelOf(
  lastCreatedAt: number | null,
  journal: JournalEntry[] = readJournal(),
): MigrationLevel {
  if (lastCreatedAt === null) return { current: null, pending: journal.map((e) => e.tag) };
  const known = journal.find((e) => e.when === lastCreatedAt);
  return {
    current: known?.tag ?? `an unknown migration of ${new Date(lastCreatedAt).toISOString()}`,
    pending: journal.filter((e) => e.when > lastCreatedAt).map((e) => e.tag),
  };
}

/** Runs one statement and returns its rows (whatever the driver). */
export type RunSql = (text: string) => Promise<Record<string, unknown>[]>;

/** Reads the level of the database `run` reaches. */
export async function readMigrationLevel(
  run: RunSql,
  journal: JournalEntry[] = readJournal(),
): Promise<MigrationLevel> {
  const [table] = await run(
    "select to_regclass('drizzle.__drizzle_migrations') is not null as present",
  );
  if (!table?.present) return migrationLevelOf(null, journal);
  const [last] = await run(
    "select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1",
  );
  const at = last?.created_at;
  return migrationLevelOf(at === undefined || at === null ? null : Number(at), journal);
}

/** "0009" from "0009_partner-disabled": the short form in backup file names. */
export function migrationNumber(tag: string): string {
  return /^\d+/.exec(tag)?.[0] ?? "unknown";
}
