/**
 * Scheduled jobs that must happen once, whatever runs them: several worker processes, several
 * machines behind a load balancer, a restart in the middle (docs/decisions/0130).
 *
 * Time is cut into ticks of the job's period (an hour for maintenance, 30 s for freezing). A
 * process that wants to run a job claims the current tick by inserting (job, tick) into
 * `job_runs`; the primary key lets exactly one insert win, the others skip. The winner records
 * when it finished, how long it took and any error. A claim is never retried within its tick:
 * every job here catches up on the next tick (it does whatever is due by then), and the work
 * itself keeps its own once-only claims (an event's `frozen_at`, a player's `reminders_sent`
 * row), which also guard the CLI's manual runs.
 */
import { hostname } from "node:os";
import { sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../client.js";

/** Which process ran a job: host and process id, for the admin and the logs. */
export function jobOwner(): string {
  return `${hostname()}:${process.pid}`;
}

/** The start of the tick `now` falls in, for a job run every `everyMs`. */
export function jobTick(now: Date, everyMs: number): Date {
  const period = Math.max(1, Math.trunc(everyMs));
  return new Date(Math.floor(now.getTime() / period) * period);
}

export interface JobRun {
  job: string;
  tick: Date;
  owner: string;
  startedAt: Date;
  finishedAt: Date | null;
  ms: number | null;
  error: string | null;
}

export type JobOutcome<T> =
  | { ran: true; tick: Date; result: T; ms: number }
  | { ran: true; tick: Date; error: unknown; ms: number }
  | { ran: false; tick: Date };

/** Claims `job`'s tick for `owner`: true for the one caller that inserted it. */
export async function claimJobRun(
  db: DbOrTx,
  job: string,
  tick: Date,
  owner = jobOwner(),
): Promise<boolean> {
  const rows = rowsOf<{ job: string }>(
    await db.execute(sql`
      insert into job_runs (job, tick, owner, started_at)
      values (${job}, ${tick.toISOString()}::timestamptz, ${owner}, now())
      on conflict do nothing
      returning job`),
  );
  return rows.length === 1;
}

/**
 * Runs `fn` if this call wins `job`'s current tick, and records how it ended. An error in `fn`
 * is recorded and returned, never thrown (a scheduler keeps going); an error claiming the tick
 * (the database is away) is thrown.
 */
export async function runScheduledJob<T>(
  db: DbOrTx,
  job: { name: string; everyMs: number; now: Date; owner?: string },
  fn: () => Promise<T>,
): Promise<JobOutcome<T>> {
  const tick = jobTick(job.now, job.everyMs);
  if (!(await claimJobRun(db, job.name, tick, job.owner))) return { ran: false, tick };
  const started = performance.now();
  let outcome: JobOutcome<T>;
  try {
    const result = await fn();
    outcome = { ran: true, tick, result, ms: Math.round(performance.now() - started) };
  } catch (error) {
    outcome = { ran: true, tick, error, ms: Math.round(performance.now() - started) };
  }
  const message =
    "error" in outcome
      ? String((outcome.error as Error)?.message ?? outcome.error)
          .split("\n")[0]!
          .slice(0, 500)
      : null;
  await db
    .execute(sql`
      update job_runs set finished_at = now(), ms = ${outcome.ms}, error = ${message}
      where job = ${job.name} and tick = ${tick.toISOString()}::timestamptz`)
    .catch(() => {});
  return outcome;
}

/** The latest runs, newest first (of one job when named). */
export async function listJobRuns(
  db: DbOrTx,
  opts: { job?: string; limit?: number } = {},
): Promise<JobRun[]> {
  const limit = Math.min(Math.max(Math.trunc(opts.limit ?? 50), 1), 1000);
  const rows = rowsOf<{
    job: string;
    tick: string | Date;
    owner: string;
    started_at: string | Date;
    finished_at: string | Date | null;
    ms: number | null;
    error: string | null;
  }>(
    await db.execute(sql`
      select job, tick, owner, started_at, finished_at, ms, error from job_runs
      ${opts.job ? sql`where job = ${opts.job}` : sql``}
      order by tick desc, job limit ${limit}`),
  );
  return rows.map((r) => ({
    job: r.job,
    tick: new Date(r.tick),
    owner: r.owner,
    startedAt: new Date(r.started_at),
    finishedAt: r.finished_at === null ? null : new Date(r.finished_at),
    ms: r.ms,
    error: r.error,
  }));
}

/** Runs older than `keepMs` (a week by default) are forgotten by maintenance. */
export async function purgeOldJobRuns(
  db: DbOrTx,
  now: Date,
  keepMs = 7 * 24 * 3600_000,
): Promise<void> {
  await db.execute(
    sql`delete from job_runs where tick < ${new Date(now.getTime() - keepMs).toISOString()}::timestamptz`,
  );
}
