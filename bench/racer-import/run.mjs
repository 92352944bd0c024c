// Racer import benchmark: a 10,000-row CSV generated here, imported through the same service as
// the dashboard and `game-admin racers import` (one transaction, chunked upsert), on PostgreSQL
// (a fresh database on the server of DATABASE_URL, default postgres://postgres@127.0.0.1:5432,
// dropped afterwards) and on embedded PGlite for comparison. Target: under 2 s on PostgreSQL.
//   node bench/racer-import/run.mjs            (or: npm run bench -- racer-import)
import { performance } from "node:perf_hooks";
import { CLI_ACTOR, createDb, importRacers, readRacerCsv, seed } from "@game/db";

const ROWS = 10_000;
const TARGET_MS = 2000;
const ROUNDS = 3;
const CATEGORIES = ["Pro Men", "Pro Women", "17-18 Men", "17-18 Women"];
const HEADER = "Category,First Name,Last Name,Picture,Origin,Game ID,Rank2024,TotalPoint2024,Price";

function csv(priceBump = 0) {
  const lines = [HEADER];
  for (let i = 0; i < ROWS; i++) {
    const game = 5 + (i % 5);
    lines.push(
      [
        CATEGORIES[i % 4],
        `Bench${i}`,
        `Rider${Math.floor(i / 7)}`,
        `bench-${i}.jpg`,
        ["FRA", "AUS", "USA", "GBR", "NZL"][i % 5],
        game,
        (i % 200) + 1,
        (i * 37) % 2000,
        75_000 + ((i * 1_000) % 250_000) + priceBump,
      ].join(","),
    );
  }
  return `${lines.join("\n")}\n`;
}

const ms = (t) => `${t.toFixed(0)} ms`;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function time(fn) {
  const t0 = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - t0 };
}

/** Three rounds on a clean table each: create 10k, re-import unchanged, update 10k. */
async function measure(h, records, changed) {
  const create = [];
  const again = [];
  const update = [];
  for (let round = 0; round < ROUNDS; round++) {
    await h.db.execute("delete from racers where first_name like 'Bench%'");
    const a = await time(() => importRacers(h.db, { records, actor: CLI_ACTOR }));
    if (a.value.created !== ROWS)
      throw new Error(`expected ${ROWS} created, got ${a.value.created}`);
    const b = await time(() => importRacers(h.db, { records, actor: CLI_ACTOR }));
    if (b.value.unchanged !== ROWS) throw new Error(`expected ${ROWS} unchanged`);
    const c = await time(() => importRacers(h.db, { records: changed, actor: CLI_ACTOR }));
    if (c.value.updated !== ROWS) throw new Error(`expected ${ROWS} updated`);
    create.push(a.ms);
    again.push(b.ms);
    update.push(c.ms);
  }
  return { create: median(create), again: median(again), update: median(update) };
}

function report(engine, r) {
  console.log(
    `${engine.padEnd(10)} create ${ms(r.create).padStart(8)}   re-import (unchanged) ${ms(r.again).padStart(8)}   update ${ms(r.update).padStart(8)}   (median of ${ROUNDS})`,
  );
}

const text = csv();
const parsed = await time(() => readRacerCsv(text));
const records = parsed.value;
const changed = readRacerCsv(csv(500));
console.log(
  `${ROWS.toLocaleString("en-US")} rows, ${(Buffer.byteLength(text) / 1024).toFixed(0)} KB of CSV; parsing (papaparse + checks) ${ms(parsed.ms)}`,
);

let failed = false;
const base = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const name = `gf_bench_${process.pid}`;
const server = new URL(base);
let pg;
try {
  const admin = await createDb({ url: base, max: 1, migrate: false });
  await admin.db.execute(`create database "${name}"`);
  await admin.close();
  server.pathname = `/${name}`;
  pg = await createDb({ url: server.toString() });
  await seed(pg.db);
  const r = await measure(pg, records, changed);
  report("postgres", r);
  if (r.create > TARGET_MS || r.update > TARGET_MS) {
    console.log(`over the ${TARGET_MS} ms target on PostgreSQL`);
    failed = true;
  }
} catch (error) {
  console.log(`postgres   not measured: ${error.message.split("\n")[0]}`);
  failed = true;
} finally {
  await pg?.close();
  try {
    const admin = await createDb({ url: base, max: 1, migrate: false });
    await admin.db.execute(`drop database if exists "${name}" with (force)`);
    await admin.close();
  } catch {
    // Nothing was created.
  }
}

const lite = await createDb({ url: "", dataDir: "memory" });
try {
  await seed(lite.db);
  report("pglite", await measure(lite, records, changed));
} finally {
  await lite.close();
}
process.exit(failed ? 1 : 0);
