/**
 * Test databases: each call gives a fresh, migrated database. PGlite in memory by default, loaded
 * from one migrated template; a fresh database on the PostgreSQL server when DATABASE_URL is set,
 * dropped again by `close()`. The same db tests therefore run on both engines.
 */
import { createHash, type Hash, randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { DEFAULT_RULES } from "@game/core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import postgres from "postgres";
import { createDb, type Db, type DbHandle } from "./client.js";
import { migrationsFolder, seedFolder } from "./paths.js";

export type { Db, DbHandle } from "./client.js";

import * as schema from "./schema/index.js";
import { seed } from "./seed.js";

let template: Promise<Blob> | undefined;
let postgresTemplateName: Promise<string> | undefined;

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
  template ??= migratedTemplate();
  const pglite = new PGlite({ loadDataDir: await template });
  await pglite.waitReady;
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

/**
 * The migrated database's files, made once per set of migrations and engine and kept in the
 * temporary folder: every test file is its own module graph, and a new engine plus the migrations
 * cost about four times what loading their result does (a few seconds each on 2 busy cores).
 */
async function migratedTemplate(): Promise<Blob> {
  const file = path.join(tmpdir(), `gf-test-template-${templateKey()}.tar`);
  try {
    return new Blob([await readFile(file)]);
  } catch {
    // Not made yet (or by another worker at this moment): make it here.
  }
  const handle = await createDb({ dataDir: "memory", url: "" });
  try {
    const dump = await handle.pglite!.dumpDataDir("none");
    // Written whole under another name first: a worker never reads half a file.
    const partial = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
    await writeFile(partial, new Uint8Array(await dump.arrayBuffer()));
    await rename(partial, file).catch(() => rm(partial, { force: true }));
    return dump;
  } finally {
    await handle.close();
  }
}

/** Adds the files of `dir` (and, `recursive`, of its folders) to `hash`, by name. */
function hashFiles(hash: Hash, dir: string, recursive = true): Hash {
  for (const name of readdirSync(dir, { recursive }).map(String).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isFile()) hash.update(name).update(readFileSync(full));
  }
  return hash;
}

/** What a template depends on: the migrations' files and (embedded) the engine's build. */
function templateKey(embedded = true): string {
  const hash = hashFiles(createHash("sha256"), migrationsFolder);
  if (embedded) {
    const engine = createRequire(import.meta.url).resolve("@electric-sql/pglite");
    const { size, mtimeMs } = statSync(engine);
    hash.update(`${engine}:${size}:${mtimeMs}`);
  }
  return hash.digest("hex").slice(0, 16);
}

let seeded: Promise<string> | undefined;

/**
 * An embedded data folder holding a migrated, seeded database, for tests that start the app on a
 * copy of it (copy its `pgdata`): a first start's initdb, migrations and seed cost seconds per
 * test file. Made once per template (migrations, engine), seed files and build of this package,
 * in the temporary folder, under another name first and renamed when whole.
 */
export function seededDataDir(): Promise<string> {
  seeded ??= (async () => {
    const key = hashFiles(createHash("sha256").update(templateKey()), seedFolder);
    // This package's own code (the seed's rules), as built: the files beside this module.
    hashFiles(key, path.dirname(fileURLToPath(import.meta.url)), false);
    const dir = path.join(tmpdir(), `gf-seeded-${key.digest("hex").slice(0, 16)}`);
    if (existsSync(dir)) return dir;
    const building = `${dir}.${process.pid}.${randomBytes(4).toString("hex")}`;
    const handle = await createDb({ dataDir: building, url: "" });
    try {
      await seed(handle.db);
    } finally {
      await handle.close();
    }
    // Another process may have made it first: theirs is as good.
    await rename(building, dir).catch(() => rm(building, { recursive: true, force: true }));
    return dir;
  })();
  return seeded;
}

/**
 * A migrated database on the server to copy (`create database ... template`), made once per set
 * of migrations: copying it is ten times quicker than migrating a new one. Templates of other
 * migrations are dropped when a new one is made (one in use elsewhere is left).
 */
async function postgresTemplate(admin: postgres.Sql, url: string): Promise<string> {
  const template = `gf_template_${templateKey(false)}`;
  const exists = async () =>
    (await admin`select 1 from pg_database where datname = ${template}`).length > 0;
  if (await exists()) return template;
  await admin`select pg_advisory_lock(727275)`;
  try {
    if (await exists()) return template;
    // Built under another name and renamed when whole: a failed build is never copied.
    const building = `${template}_${randomBytes(4).toString("hex")}`;
    await admin.unsafe(`create database "${building}"`);
    const handle = await createDb({ url: withDatabase(url, building), max: 1 });
    await handle.close();
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.unsafe(`alter database "${building}" rename to "${template}"`);
        break;
      } catch (error) {
        // The closed connection may linger on the server for a moment.
        if (attempt >= 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    const others = await admin<{ datname: string }[]>`
      select datname from pg_database where datname like 'gf\_template\_%' and datname <> ${template}`;
    for (const { datname } of others) {
      await admin.unsafe(`drop database if exists "${datname}"`).catch(() => {});
    }
    return template;
  } finally {
    await admin`select pg_advisory_unlock(727275)`;
  }
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
    // Looked up (or made) once per process: its name hashes every migration file.
    postgresTemplateName ??= postgresTemplate(admin, url);
    const template = await postgresTemplateName.catch((error) => {
      postgresTemplateName = undefined;
      throw error;
    });
    await admin.unsafe(`create database "${name}" template "${template}"`);
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
