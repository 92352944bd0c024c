// Season: rolling a big competition forward and sending a million deadline reminders.
//
//   npm run bench -- season
//   SEASON_PLAYERS=100000 npm run bench -- season
//
// On PostgreSQL (BENCH_PG_URL, a fresh database dropped afterwards):
//  1. generates SEASON_PLAYERS players, each with a team of six for the competition (bench/scale);
//  2. freezes round 1 at its lock and imports its results (which settles it), then a corrected
//     results file (1st and 2nd swapped in every category), and checks every player's points
//     in the competition's table against a recomputation;
//  3. times `season advance` as a dry run and for real (new entries for every racer, the next
//     round opened; no team is copied: docs/decisions/0157), the same service as the CLI;
//  4. times round 2's freeze at its lock (every team, through its racers' round 2 entries), its
//     results in provisional pieces (the first settles two rounds, the next re-scores, the same
//     piece again changes nothing) and then its final results;
//  5. removes the teams so every player is due a reminder, and times sending them all to the
//     outbox 20 hours before round 2 locks (`reminders send`'s service), then checks that each
//     player got exactly one.
//
// Targets (docs/benchmarks.md): `season advance` at 1,000,000 players within 5 s (an admin
// waits for it on results night); the settlement of a round within 8 s and a corrected results
// import within 10 s; a provisional re-score within 8 s (issue 23); 1,000,000 reminders to
// the outbox within 10 minutes (they are due 24 hours before the lock and go out in batches, so
// the app keeps serving meanwhile). The freeze is measured, without a target.
//
// Environment: BENCH_PG_URL (postgres://postgres@127.0.0.1:5432/postgres), SEASON_PLAYERS
// (1000000).
import { lockTime } from "@game/core";
import {
  advanceSeason,
  CLI_ACTOR,
  createDb,
  freezeEvent,
  importResults,
  seed,
  sendDueReminders,
} from "@game/db";
import postgres from "postgres";
import { generate, resultsCsv } from "../scale/generate.mjs";

const { BENCH_PG_URL = "postgres://postgres@127.0.0.1:5432/postgres", SEASON_PLAYERS = "1000000" } =
  process.env;
const PLAYERS = Number(SEASON_PLAYERS);

const ADVANCE_TARGET_MS = 5_000;
const SETTLEMENT_TARGET_MS = 8_000;
const CORRECTED_TARGET_MS = 10_000;
/** Issue 23: a provisional re-score on race day. */
const PROVISIONAL_TARGET_MS = 8_000;
const REMINDERS_TARGET_MS = 600_000;
/** The figure against its target, which is set for 1,000,000 players (fixed costs dominate below). */
const verdict = (ms, target) =>
  PLAYERS >= 1_000_000
    ? `${fmt(ms)} (target ${fmt(target)}: ${ms <= target ? "met" : "MISSED"})`
    : `${fmt(ms)} (target ${fmt(target)} applies at 1,000,000 players)`;

const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);
const log = (label, ms) => console.log(`  ${label.padEnd(56)} ${fmt(ms)}`);

async function timed(label, fn) {
  const t0 = performance.now();
  const value = await fn();
  const ms = performance.now() - t0;
  log(label, ms);
  return { value, ms };
}

function withDatabase(url, name) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

const name = `gf_bench_season_${process.pid}`;
const admin = postgres(BENCH_PG_URL, { max: 1, onnotice: () => {} });
await admin.unsafe(`create database "${name}"`);
const url = withDatabase(BENCH_PG_URL, name);
let failed = false;
try {
  console.log(`PostgreSQL: ${PLAYERS.toLocaleString("en-US")} players`);
  const handle = await createDb({ url, max: 4 });
  const bulk = postgres(url, { max: 1, onnotice: () => {} });
  const query = (text) => bulk.unsafe(text);
  try {
    await seed(handle.db);
    await timed("generation", () =>
      generate(
        { exec: query, query },
        { players: PLAYERS, leagues: Math.max(1, Math.floor(PLAYERS / 10)) },
      ),
    );
    const [round1] = await query("select starts_at from events where id = 5");
    const lock1 = lockTime({ startsAt: round1.starts_at });
    await timed("freeze round 1", () => freezeEvent(handle.db, 5, lock1));
    const racers = await query(
      `select first_name as "firstName", last_name as "lastName", category from racers where game_id = 5 order by id`,
    );
    const after = new Date(lock1.getTime() + 13 * 3600_000);
    const imported = await timed("results import + settlement", () =>
      importResults(handle.db, 5, resultsCsv(racers), { now: after }),
    );
    if (!imported.value.ok) throw new Error("results refused");
    const steps = (summary) =>
      Object.entries(summary.steps)
        .map(([k, v]) => `${k} ${fmt(v)}`)
        .join(", ");
    console.log(`  steps: ${steps(imported.value.settlement)}`);
    const corrected = await timed("corrected results import + settlement", () =>
      importResults(handle.db, 5, resultsCsv(racers, { swapTop: true }), { now: after }),
    );
    if (!corrected.value.ok) throw new Error("corrected results refused");
    console.log(`  steps: ${steps(corrected.value.settlement)}`);
    // Every player's points in the competition's table against a recomputation.
    const [table] = await query(`
      select count(*)::int as wrong, count(t.user_id)::int as ranked from users u
      left join (
        select f.user_id, sum(r.points)::int as points
        from frozen_team_racers f join race_results r on r.event_id = f.event_id and r.racer_id = f.racer_id
        where f.event_id = 5 group by f.user_id
      ) s on s.user_id = u.id
      left join season_standings t on t.user_id = u.id
        and t.competition_id = (select competition_id from events where id = 5)
      where coalesce(t.points, -1) <> coalesce(s.points, 0)`);
    if (table.wrong !== 0) throw new Error(`${table.wrong} players with wrong points`);

    const dry = await timed("season advance --dry-run", () =>
      advanceSeason(handle.db, { now: after, actor: CLI_ACTOR, dryRun: true }),
    );
    const real = await timed("season advance", () =>
      advanceSeason(handle.db, { now: after, actor: CLI_ACTOR }),
    );
    console.log(
      `  ${real.value.entries} entries, ${real.value.carried.toLocaleString("en-US")} teams play on (${real.value.drafts} to fix); dry run counted ${dry.value.carried.toLocaleString("en-US")}`,
    );
    if (real.value.carried !== PLAYERS || dry.value.carried !== PLAYERS) {
      throw new Error("not every team plays on");
    }
    const [round2] = await query("select starts_at from events where id = 6");
    const lock2 = lockTime({ startsAt: round2.starts_at });
    const frozen2 = await timed("freeze round 2 at its lock", () =>
      freezeEvent(handle.db, 6, lock2),
    );
    if (frozen2.value?.teams !== PLAYERS) throw new Error("round 2 froze the wrong teams");
    const racers2 = await query(
      `select first_name as "firstName", last_name as "lastName", category from racers where game_id = 6 order by id`,
    );
    const after2 = new Date(lock2.getTime() + 13 * 3600_000);
    // Race day (decision 0171): round 2's results arrive in provisional pieces, each re-scoring
    // the round (the first one settles it: the table of two rounds), then the final results.
    const piece1 = await timed("round 2 first provisional piece (settles two rounds)", () =>
      importResults(handle.db, 6, resultsCsv(racers2, { swapTop: true }), {
        now: after2,
        provisional: true,
      }),
    );
    if (!piece1.value.ok) throw new Error("round 2 provisional results refused");
    console.log(`  steps: ${steps(piece1.value.settlement)}`);
    const piece2 = await timed("round 2 next provisional piece (re-score)", () =>
      importResults(handle.db, 6, resultsCsv(racers2), { now: after2, provisional: true }),
    );
    if (!piece2.value.ok) throw new Error("round 2 provisional results refused");
    console.log(`  steps: ${steps(piece2.value.settlement)}`);
    const repeated = await timed("round 2 the same piece again (unchanged)", () =>
      importResults(handle.db, 6, resultsCsv(racers2), { now: after2, provisional: true }),
    );
    if (!repeated.value.ok || !repeated.value.unchanged)
      throw new Error("a repeated piece re-scored");
    const imported2 = await timed("round 2 final results import + settlement", () =>
      importResults(handle.db, 6, resultsCsv(racers2), { now: after2 }),
    );
    if (!imported2.value.ok) throw new Error("round 2 results refused");
    console.log(`  steps: ${steps(imported2.value.settlement)}`);

    // Nobody has a team now: every player is due round 2's reminder (sent, in the bench's
    // clock, 20 hours before the lock the freeze above ran at).
    await query("delete from teams");
    const due = new Date(lock2.getTime() - 20 * 3600_000);
    const sent = await timed(`reminders to the outbox (${PLAYERS.toLocaleString("en-US")})`, () =>
      sendDueReminders(handle.db, { now: due, baseUrl: "https://bench.example" }),
    );
    const again = await timed("reminders again (nothing due)", () =>
      sendDueReminders(handle.db, { now: due, baseUrl: "https://bench.example" }),
    );
    const [check] = await query(
      'select count(*)::int as mails, count(distinct "to")::int as people from outbox',
    );
    console.log(
      `  ${sent.value.sent.toLocaleString("en-US")} sent, then ${again.value.sent}; outbox: ${check.mails.toLocaleString("en-US")} mails to ${check.people.toLocaleString("en-US")} players`,
    );
    if (sent.value.sent !== PLAYERS || check.mails !== PLAYERS || check.people !== PLAYERS) {
      throw new Error("reminders: not exactly one per player");
    }
    console.log(`  season advance: ${verdict(real.ms, ADVANCE_TARGET_MS)}`);
    console.log(
      `  settlement (with the results import): ${verdict(imported.ms, SETTLEMENT_TARGET_MS)}`,
    );
    console.log(`  corrected results import: ${verdict(corrected.ms, CORRECTED_TARGET_MS)}`);
    console.log(
      `  round 2 settlement (its first provisional piece): ${verdict(piece1.ms, SETTLEMENT_TARGET_MS)}`,
    );
    console.log(
      `  provisional re-score (round 2's next piece): ${verdict(piece2.ms, PROVISIONAL_TARGET_MS)}`,
    );
    console.log(`  freeze at the lock: ${fmt(frozen2.ms)} (measured, no target)`);
    console.log(`  reminders: ${verdict(sent.ms, REMINDERS_TARGET_MS)}`);
  } finally {
    await bulk.end({ timeout: 5 });
    await handle.close();
  }
} catch (error) {
  failed = true;
  console.error(error);
} finally {
  await admin.unsafe(`drop database if exists "${name}" with (force)`);
  await admin.end({ timeout: 5 });
}
process.exit(failed ? 1 : 0);
