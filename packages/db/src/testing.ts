/**
 * Test databases: each call gives a fresh, migrated database. PGlite in memory by default (cloned
 * from one migrated template per test worker, so each file pays the migration once); a fresh
 * database on the PostgreSQL server when DATABASE_URL is set, dropped again by `close()`.
 * The same db tests therefore run on both engines.
 */
import { randomBytes } from "node:crypto";
import type { PGlite } from "@electric-sql/pglite";
import { DEFAULT_RULES } from "@game/core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import postgres from "postgres";
import { createDb, type Db, type DbHandle } from "./client.js";

export type { Db, DbHandle } from "./client.js";

import * as schema from "./schema/index.js";
import { seed } from "./seed.js";

let template: Promise<DbHandle> | undefined;

export interface TestDbOptions {
  /** Insert the 12 events and the seed racers. */
  seed?: boolean;
  /** Pool size on PostgreSQL (default 10). */
  max?: number;
}

export async function createTestDb(opts: TestDbOptions = {}): Promise<DbHandle> {
  const url = process.env.DATABASE_URL;
  const handle = url ? await freshPostgres(url, opts.max ?? 10) : await freshPglite();
  if (opts.seed) await seed(handle.db);
  // Without the seed, one competition (with the spec's rules) for the leagues a test creates:
  // a league plays a competition (docs/decisions/0158).
  else {
    await handle.db
      .insert(schema.competitions)
      .values({ slug: "test-competition", name: "Test Competition", rules: DEFAULT_RULES });
  }
  return handle;
}

async function freshPglite(): Promise<DbHandle> {
  template ??= createDb({ dataDir: "memory", url: "" });
  const base = await template;
  const pglite = (await base.pglite!.clone()) as PGlite;
  const db = drizzlePglite(pglite, { schema }) as unknown as Db;
  return {
    db,
    readDb: db,
    kind: "pglite",
    pglite,
    location: "memory",
    close: async () => {
      if (!pglite.closed) await pglite.close();
    },
  };
}

/** The URL of another database on the same server. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function freshPostgres(url: string, max: number): Promise<DbHandle> {
  const name = `gf_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database "${name}"`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  const handle = await createDb({ url: withDatabase(url, name), max });
  return {
    ...handle,
    close: async () => {
      await handle.close();
      const dropper = postgres(url, { max: 1, onnotice: () => {} });
      try {
        await dropper.unsafe(`drop database if exists "${name}" with (force)`);
      } finally {
        await dropper.end({ timeout: 5 });
      }
    },
  };
}

export { setRuleOptions } from "./fixtures/rules.js";
export { putLeagueMemberPoints } from "./fixtures/standings.js";
export { putTeam } from "./fixtures/teams.js";
export { type CuttingRelay, cuttingRelay } from "./test-relay.js";
export { startTestReplica, type TestReplica } from "./test-replica.js";
