// The one loop behind every scheduled job (freezing teams, counting picks, reminders,
// maintenance): a pass now and then on every check, never overlapping the previous pass, and
// each `everyMs` tick claimed in the database by one process of all those running
// (runScheduledJob, docs/decisions/0130), so several processes and machines run it once.
// Why this and not a job-runner library: docs/decisions/0166-one-scheduled-job-loop.md.
import { type Db, runScheduledJob } from "@game/db";

/** Times a job's run: the server passes its metrics' `timeJob` (docs/decisions/0136). */
export type TimeJob = <T>(job: string, fn: () => Promise<T>) => Promise<T>;

/** Where a job says what it did, and its errors (the console unless a test listens). */
export interface JobLog {
  log(line: string): void;
  error(line: string): void;
}

/** One scheduled job: what `startJob` runs each tick. */
export interface Job<R> {
  name: string;
  /** The label of its duration metric (default `name`). */
  metric?: string;
  everyMs: number;
  run(at: Date): Promise<R>;
  report?(result: R, log: JobLog): void;
  failed: string;
}

export interface JobOptions {
  now?: () => Date;
  log?: JobLog;
  time?: TimeJob;
}

/** Runs `fn` as is; the server passes its metrics' `timeJob` instead (docs/decisions/0136). */
const untimed: TimeJob = (_job, fn) => fn();

/**
 * Starts `job`: `run(at)` does the work of a tick and resolves to its result, `report(result,
 * log)` says what a person should know of it, `failed` starts the log line of an error. Checks
 * every `everyMs`, at least once a minute; returns a function stopping it.
 */
export function startJob<R>(
  db: Db,
  job: Job<R>,
  { now = () => new Date(), log = console, time = untimed }: JobOptions = {},
): () => void {
  const { name, everyMs, run, report, failed, metric = name } = job;
  let running = false;
  const pass = async () => {
    // A pass over a million teams takes seconds: never start one while another runs.
    if (running) return;
    running = true;
    try {
      const at = now();
      const outcome = await runScheduledJob(db, { name, everyMs, now: at }, () =>
        time(metric, () => run(at)),
      );
      if ("error" in outcome) throw outcome.error;
      if (outcome.ran && report) report(outcome.result, log);
    } catch (error) {
      log.error(
        `${failed}: ${(error as { message?: unknown } | null | undefined)?.message ?? error}`,
      );
    } finally {
      running = false;
    }
  };
  void pass();
  const timer = setInterval(pass, Math.min(everyMs, 60_000));
  timer.unref();
  return () => clearInterval(timer);
}

/** Starts several jobs; returns one function stopping them all. */
export function startJobs(db: Db, jobs: Job<unknown>[], opts?: JobOptions): () => void {
  const stops = jobs.map((job) => startJob(db, job, opts));
  return () => {
    for (const stop of stops) stop();
  };
}
