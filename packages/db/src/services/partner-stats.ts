/**
 * Partner stats: what each partner's site brought, per UTC day (widget loads, public API calls,
 * iframe sign-ins, team saves). Counters only: no visitor, IP or account is stored
 * (docs/decisions/0092-partner-stats.md).
 *
 * Rare events (sign-ins, saves) are upserted as they happen. Frequent ones (widget loads, API
 * calls) go through `createPartnerStatsCounter`, which adds them up in memory and writes one
 * upsert per flush, so a busy embed costs one statement every few seconds, not one per request.
 */
import { normalizeOrigin } from "@game/core";
import { and, asc, eq, gte, isNull, lte, sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../client.js";
import { partnerDailyStats, partners, rateLimits } from "../schema/index.js";

export const PARTNER_STAT_KINDS = ["widgetLoads", "apiCalls", "signIns", "teamSaves"] as const;
export type PartnerStatKind = (typeof PARTNER_STAT_KINDS)[number];
export type PartnerStatCounts = Record<PartnerStatKind, number>;

/** Days a stats query may cover (about a season). */
export const PARTNER_STATS_MAX_DAYS = 366;

export interface PartnerStatDelta extends Partial<PartnerStatCounts> {
  partnerId: number;
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
}

/** The UTC day of `at`, `YYYY-MM-DD`. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

const zero = (): PartnerStatCounts => ({ widgetLoads: 0, apiCalls: 0, signIns: 0, teamSaves: 0 });

/**
 * Adds the deltas in one statement: `insert ... on conflict do update set x = x + excluded.x`,
 * atomic under concurrency (several app processes, the CLI). Deltas for a partner deleted in the
 * meantime are dropped (the join), never an error.
 */
export async function addPartnerStats(db: DbOrTx, deltas: readonly PartnerStatDelta[]) {
  const rows = deltas.filter((d) => PARTNER_STAT_KINDS.some((k) => (d[k] ?? 0) > 0));
  if (rows.length === 0) return;
  const values = sql.join(
    rows.map(
      (d) =>
        sql`(${d.partnerId}::int, ${d.day}::date, ${d.widgetLoads ?? 0}::int, ${d.apiCalls ?? 0}::int, ${d.signIns ?? 0}::int, ${d.teamSaves ?? 0}::int)`,
    ),
    sql`, `,
  );
  await db.execute(sql`
    insert into partner_daily_stats as s (partner_id, day, widget_loads, api_calls, sign_ins, team_saves)
    select v.partner_id, v.day, v.w, v.a, v.s, v.t
    from (values ${values}) as v(partner_id, day, w, a, s, t)
    join partners p on p.id = v.partner_id
    on conflict (partner_id, day) do update set
      widget_loads = s.widget_loads + excluded.widget_loads,
      api_calls = s.api_calls + excluded.api_calls,
      sign_ins = s.sign_ins + excluded.sign_ins,
      team_saves = s.team_saves + excluded.team_saves`);
}

/** Counts one event of `kind` for the partner, now (for rare events: sign-ins, saves). */
export function recordPartnerStat(
  db: DbOrTx,
  partnerId: number,
  kind: PartnerStatKind,
  now = new Date(),
  n = 1,
): Promise<void> {
  return addPartnerStats(db, [{ partnerId, day: utcDay(now), [kind]: n }]);
}

export interface PartnerStatsCounter {
  /** Adds `n` (default 1) to the partner's counter of `kind` for today (UTC). */
  count(partnerId: number, kind: PartnerStatKind, n?: number): void;
  /** Writes what was counted since the last flush. */
  flush(): Promise<void>;
  /** Stops the timer and flushes. */
  stop(): Promise<void>;
}

/**
 * An in-memory counter flushed every `flushMs` (default 5 s). A failed flush keeps its counts for
 * the next one. What a process counted in its last seconds is lost if it is killed without
 * `stop()`: acceptable for traffic stats.
 */
export function createPartnerStatsCounter(
  db: DbOrTx,
  options: { flushMs?: number; now?: () => Date } = {},
): PartnerStatsCounter {
  const now = options.now ?? (() => new Date());
  let pending = new Map<string, PartnerStatDelta>();
  let running: Promise<void> = Promise.resolve();

  const flush = () => {
    running = running.then(async () => {
      if (pending.size === 0) return;
      const batch = pending;
      pending = new Map();
      try {
        await addPartnerStats(db, [...batch.values()]);
      } catch (error) {
        console.error("partner stats: flush failed, retrying later", error);
        for (const d of batch.values()) add(d.partnerId, d.day, d);
      }
    });
    return running;
  };

  function add(partnerId: number, day: string, counts: Partial<PartnerStatCounts>) {
    const key = `${partnerId}|${day}`;
    const row = pending.get(key) ?? { partnerId, day };
    for (const k of PARTNER_STAT_KINDS) {
      if (counts[k]) row[k] = (row[k] ?? 0) + counts[k];
    }
    pending.set(key, row);
  }

  const timer = setInterval(() => void flush(), options.flushMs ?? 5000);
  // Never keeps a process (the CLI, a test) alive on its own.
  timer.unref?.();

  return {
    count(partnerId, kind, n = 1) {
      if (!Number.isSafeInteger(partnerId) || !(n > 0)) return;
      add(partnerId, utcDay(now()), { [kind]: Math.floor(n) });
    },
    flush,
    async stop() {
      clearInterval(timer);
      await flush();
    },
  };
}

/** Widgets one page view may count: a page with more is unusual, a bigger number is noise. */
export const MAX_WIDGETS_PER_PAGE_VIEW = 20;
/** How long a page view's count is remembered: a page still open later counts again. */
export const PAGE_VIEW_MEMORY_MS = 60 * 60_000;

/**
 * The widget loads to credit for a hello of the page view `pageView` (an id the embed script
 * draws once per page) that reports `widgets` widgets on the page so far: the part of that count
 * (capped at MAX_WIDGETS_PER_PAGE_VIEW) that earlier hellos of the same page view have not
 * credited. So a page view counts its widgets once however often its hello is replayed
 * (docs/decisions/0154).
 *
 * The high-water mark is kept in the rate-limit counters' table (a keyed count that expires,
 * purged with them): one upsert, shared by every app process. Two hellos of one page view at the
 * same instant may both be credited; the embed script sends them one at a time.
 */
export async function creditPageView(
  db: DbOrTx,
  partnerId: number,
  pageView: string,
  widgets: number,
  now = new Date(),
): Promise<number> {
  const n = Math.min(Math.max(Math.floor(widgets), 0), MAX_WIDGETS_PER_PAGE_VIEW);
  if (!Number.isSafeInteger(partnerId) || !(n > 0)) return 0;
  const key = `embed-pv:${partnerId}:${pageView}`;
  const at = now.toISOString();
  const reset = new Date(now.getTime() + PAGE_VIEW_MEMORY_MS).toISOString();
  const [row] = rowsOf<{ credited: number; before: number | null }>(
    await db.execute(sql`
      with previous as (
        select count from ${rateLimits} where key = ${key} and reset_at > ${at}::timestamptz
      )
      insert into ${rateLimits} as r (key, count, reset_at)
      values (${key}, ${n}, ${reset}::timestamptz)
      on conflict (key) do update set
        count = greatest(case when r.reset_at <= ${at}::timestamptz then 0 else r.count end, excluded.count),
        reset_at = case when r.reset_at <= ${at}::timestamptz then excluded.reset_at else r.reset_at end
      returning r.count as credited, (select count from previous) as before`),
  );
  return Math.max(0, Number(row?.credited ?? 0) - Number(row?.before ?? 0));
}

/**
 * The enabled partner that lists `origin` (a browser's `Origin` header), or undefined. An
 * origin belongs to at most one partner; should two list it, the oldest is credited.
 */
export async function partnerIdForOrigin(db: DbOrTx, origin: string): Promise<number | undefined> {
  const wanted = normalizeOrigin(origin);
  if (!wanted || wanted !== origin) return undefined;
  const rows = await db
    .select({ id: partners.id, origins: partners.origins })
    .from(partners)
    .where(isNull(partners.disabledAt))
    .orderBy(asc(partners.id));
  return rows.find((r) => r.origins.some((o) => normalizeOrigin(o) === wanted))?.id;
}

export interface PartnerStatsDay extends PartnerStatCounts {
  day: string;
}

export interface PartnerStatsReport {
  partnerId: number;
  name: string;
  disabled: boolean;
  /** Oldest first, one entry per day of the range (zeros on quiet days). */
  days: PartnerStatsDay[];
  totals: PartnerStatCounts;
}

/** The `days` UTC days ending today (oldest first). */
export function statsDays(days: number, now = new Date()): string[] {
  const end = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: days }, (_, i) =>
    utcDay(new Date(end - (days - 1 - i) * 86_400_000)),
  );
}

/**
 * Each partner's counters for the last `days` UTC days, today included (every partner, or the
 * one given; an unknown id gives an empty list).
 */
export async function getPartnerStats(
  db: DbOrTx,
  opts: { partnerId?: number; days: number; now?: Date },
): Promise<PartnerStatsReport[]> {
  const n = Math.min(Math.max(Math.floor(opts.days), 1), PARTNER_STATS_MAX_DAYS);
  const range = statsDays(n, opts.now);
  const first = range[0]!;
  const last = range[range.length - 1]!;
  const list = await db
    .select({ id: partners.id, name: partners.name, disabledAt: partners.disabledAt })
    .from(partners)
    .where(opts.partnerId === undefined ? undefined : eq(partners.id, opts.partnerId))
    .orderBy(asc(partners.id));
  if (list.length === 0) return [];
  const stats = await db
    .select()
    .from(partnerDailyStats)
    .where(
      and(
        gte(partnerDailyStats.day, first),
        lte(partnerDailyStats.day, last),
        opts.partnerId === undefined ? undefined : eq(partnerDailyStats.partnerId, opts.partnerId),
      ),
    );
  const byKey = new Map(stats.map((s) => [`${s.partnerId}|${s.day}`, s]));
  return list.map((p) => {
    const totals = zero();
    const days = range.map((day) => {
      const row = byKey.get(`${p.id}|${day}`);
      const counts = zero();
      for (const k of PARTNER_STAT_KINDS) {
        counts[k] = row ? row[k] : 0;
        totals[k] += counts[k];
      }
      return { day, ...counts };
    });
    return { partnerId: p.id, name: p.name, disabled: p.disabledAt !== null, days, totals };
  });
}
