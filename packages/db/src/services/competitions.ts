/**
 * Competitions as data (docs/decisions/0156): what admins create and run, from the CLI and the
 * dashboard alike. Every write is one transaction with its audit row; a refusal is an
 * AdminActionError with a message meant for the admin, and writes nothing.
 */
import {
  type CompetitionInput,
  type CompetitionRules,
  type CompetitionState,
  cheapestTeamCost,
  competitionInputSchema,
  competitionRulesSchema,
  competitionSlug,
  competitionState,
  DEFAULT_RULES,
  formatDateTime,
  formatPrice,
  lockTime,
  type RuleChanges,
  rulesLocked,
  withRuleChanges,
} from "@game/core";
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../client.js";
import { competitions, events, racers } from "../schema/index.js";
import { EARLIEST_START, LATEST_START } from "./admin-events.js";
import { AdminActionError, type AdminActor, recordAudit } from "./audit.js";
import { parseRules } from "./events.js";

/**
 * The competition being played now (docs/decisions/0158), in SQL: the one of the earliest open
 * round not yet settled, else of the latest settled round, else the newest. New leagues play it.
 */
export const CURRENT_COMPETITION_SQL = sql`coalesce(
  (select competition_id from events where status = 'open' and settled_at is null
    order by starts_at, id limit 1),
  (select competition_id from events where settled_at is not null
    order by starts_at desc, id desc limit 1),
  (select max(id) from competitions))`;

/**
 * The competition whose table the settlement keeps (the season's, docs/decisions/0156): the
 * latest settled round's.
 */
export const SEASON_COMPETITION_SQL = sql`(
  select competition_id from events where settled_at is not null
  order by starts_at desc, id desc limit 1)`;

/**
 * The competition the rankings show when none is asked for (docs/decisions/0159): the latest
 * settled round's, or before any settlement the one being played.
 */
export const RANKED_COMPETITION_SQL = sql`coalesce(${SEASON_COMPETITION_SQL}, ${CURRENT_COMPETITION_SQL})`;

/** The picture a competition or round shows until an admin gives its own. */
export const DEFAULT_COVER = "/img/competitions/cover.svg";
export const DEFAULT_LOGO = "/img/competitions/logo.svg";

export interface CompetitionRoundView {
  id: number;
  round: number | null;
  name: string;
  slug: string;
  location: string;
  status: "open" | "closed" | "archived";
  startsAt: Date;
  lockAt: Date;
  frozenAt: Date | null;
  settledAt: Date | null;
  /** Its results are provisional (docs/decisions/0171). */
  provisional: boolean;
  racers: number;
}

export interface CompetitionView {
  id: number;
  slug: string;
  name: string;
  discipline: (typeof competitions.$inferSelect)["discipline"];
  season: string;
  cover: string;
  logo: string;
  description: string;
  rules: CompetitionRules;
  state: CompetitionState;
  archivedAt: Date | null;
  /** Whether the rules can still change (before the first lock). */
  rulesOpen: boolean;
  rounds: CompetitionRoundView[];
}

function view(
  c: typeof competitions.$inferSelect,
  rounds: Omit<CompetitionRoundView, "lockAt">[],
  now: Date,
): CompetitionView {
  const rules = parseRules(c.rules);
  const withLock = rounds.map((r) => ({ ...r, lockAt: lockTime(r, rules.lockHours) }));
  return {
    id: c.id,
    slug: c.slug,
    name: c.name,
    discipline: c.discipline,
    season: c.season,
    cover: c.cover || DEFAULT_COVER,
    logo: c.logo || DEFAULT_LOGO,
    description: c.description,
    rules,
    state: competitionState(c, rounds),
    archivedAt: c.archivedAt,
    rulesOpen: !rulesLocked(rounds, rules, now),
    rounds: withLock,
  };
}

async function roundsOf(db: DbOrTx, competitionIds: number[]) {
  if (competitionIds.length === 0) return new Map<number, Omit<CompetitionRoundView, "lockAt">[]>();
  const rows = await db
    .select({
      competitionId: events.competitionId,
      id: events.id,
      round: events.round,
      name: events.name,
      slug: events.slug,
      location: events.location,
      status: events.status,
      startsAt: events.startsAt,
      frozenAt: events.frozenAt,
      settledAt: events.settledAt,
      provisional: events.provisional,
      // Spelled out: drizzle leaves a one-table select's columns unqualified.
      racers: sql<number>`(select count(*)::int from racers r where r.game_id = "events"."id")`,
    })
    .from(events)
    .where(sql`${events.competitionId} in ${competitionIds}`)
    .orderBy(asc(events.round), asc(events.id));
  const by = new Map<number, Omit<CompetitionRoundView, "lockAt">[]>();
  for (const { competitionId, ...r } of rows) {
    const list = by.get(competitionId) ?? [];
    list.push(r);
    by.set(competitionId, list);
  }
  return by;
}

const STATE_ORDER: Record<CompetitionState, number> = {
  live: 0,
  upcoming: 1,
  finished: 2,
  archived: 3,
};

/**
 * Every competition with its rounds: live first, then upcoming, finished and archived; within
 * each, the one whose first round starts first.
 */
export async function listCompetitions(db: DbOrTx, now: Date): Promise<CompetitionView[]> {
  const rows = await db.select().from(competitions).orderBy(asc(competitions.id));
  const rounds = await roundsOf(
    db,
    rows.map((c) => c.id),
  );
  const first = (c: CompetitionView) => c.rounds[0]?.startsAt.getTime() ?? Number.MAX_SAFE_INTEGER;
  return rows
    .map((c) => view(c, rounds.get(c.id) ?? [], now))
    .sort(
      (a, b) =>
        STATE_ORDER[a.state] - STATE_ORDER[b.state] ||
        (a.state === "finished" || a.state === "archived"
          ? first(b) - first(a)
          : first(a) - first(b)) ||
        a.id - b.id,
    );
}

export async function getCompetition(
  db: DbOrTx,
  slug: string,
  now: Date,
): Promise<CompetitionView | undefined> {
  const [row] = await db.select().from(competitions).where(eq(competitions.slug, slug));
  if (!row) return undefined;
  const rounds = await roundsOf(db, [row.id]);
  return view(row, rounds.get(row.id) ?? [], now);
}

async function lockCompetition(tx: DbOrTx, slug: string) {
  const [row] = await tx
    .select()
    .from(competitions)
    .where(eq(competitions.slug, slug))
    .for("update");
  if (!row) {
    throw new AdminActionError(
      `No competition has the slug "${slug}" (see \`game-admin competitions list\`).`,
      "not-found",
    );
  }
  return row;
}

function checkRules(rules: CompetitionRules): CompetitionRules {
  const parsed = competitionRulesSchema.safeParse(rules);
  if (!parsed.success) {
    throw new AdminActionError(
      `These rules cannot be used: ${[...new Set(parsed.error.issues.map((i) => i.message))].join(" ")}`,
    );
  }
  return parsed.data;
}

/**
 * Whether a team can be made from the racers of the competition's first round (by number)
 * that has racers, within the budget; refuses with the reason otherwise.
 */
async function checkAffordable(tx: DbOrTx, competitionId: number, rules: CompetitionRules) {
  const [first] = await tx
    .select({ id: events.id, name: events.name })
    .from(events)
    .where(
      and(
        eq(events.competitionId, competitionId),
        sql`exists (select 1 from racers r where r.game_id = "events"."id")`,
      ),
    )
    .orderBy(asc(events.round))
    .limit(1);
  if (!first) return;
  const field = await tx
    .select({ category: racers.category, price: racers.price })
    .from(racers)
    .where(and(eq(racers.gameId, first.id), isNull(racers.withdrawnAt)));
  const cheapest = cheapestTeamCost(rules, field);
  if (cheapest === null) {
    throw new AdminActionError(
      `No team of ${first.name}'s racers meets these rules (too few racers in the categories they need).`,
    );
  }
  if (cheapest > rules.budget) {
    throw new AdminActionError(
      `The budget of ${formatPrice(rules.budget)} is below the cheapest team these rules allow from ${first.name}'s racers (${formatPrice(cheapest)}).`,
    );
  }
}

export interface CreateCompetitionInput {
  name: string;
  /** One of core's DISCIPLINES (parse the CLI's short names with `parseDiscipline`). */
  discipline: string;
  season?: string;
  description?: string;
  rules?: RuleChanges;
}

function checkInput(input: CreateCompetitionInput): CompetitionInput {
  const parsed = competitionInputSchema.safeParse(input);
  if (!parsed.success) {
    throw new AdminActionError(parsed.error.issues.map((i) => i.message).join(" "));
  }
  return parsed.data;
}

export async function createCompetition(
  db: DbOrTx,
  input: CreateCompetitionInput,
  actor: AdminActor,
  now: Date,
): Promise<CompetitionView> {
  const fields = checkInput(input);
  const rules = checkRules(withRuleChanges(DEFAULT_RULES, input.rules ?? {}));
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('competitions.create'))`);
    const [same] = await tx
      .select({ slug: competitions.slug })
      .from(competitions)
      .where(sql`lower(${competitions.name}) = lower(${fields.name})`);
    if (same) {
      throw new AdminActionError(
        `A competition named "${fields.name}" already exists (${same.slug}). Give the new one another name, such as its year.`,
      );
    }
    const base = competitionSlug(fields.name);
    const taken = new Set(
      rowsOf<{ slug: string }>(
        await tx.execute(
          sql`select slug from competitions where slug = ${base} or slug like ${`${base}-%`}`,
        ),
      ).map((r) => r.slug),
    );
    let slug = base;
    for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
    const [row] = await tx
      .insert(competitions)
      .values({
        slug,
        name: fields.name,
        discipline: fields.discipline,
        season: fields.season,
        description: fields.description,
        cover: DEFAULT_COVER,
        logo: DEFAULT_LOGO,
        rules,
      })
      .returning();
    await recordAudit(tx, actor, "competition.create", `competition:${slug}`, {
      name: fields.name,
      discipline: fields.discipline,
      season: fields.season,
      rules,
    });
    return view(row!, [], now);
  });
}

/**
 * Changes a competition's rules: refused from its first lock on (teams already final would be
 * judged or scored by other rules), and when no team of its first round's racers could meet
 * them within the budget.
 */
export async function changeCompetitionRules(
  db: DbOrTx,
  slug: string,
  changes: RuleChanges,
  actor: AdminActor,
  now: Date,
): Promise<{ competition: CompetitionView; changed: boolean }> {
  return db.transaction(async (tx) => {
    const row = await lockCompetition(tx, slug);
    const before = parseRules(row.rules);
    const rules = checkRules(withRuleChanges(before, changes));
    const rounds = (await roundsOf(tx, [row.id])).get(row.id) ?? [];
    if (JSON.stringify(rules) === JSON.stringify(before)) {
      return { competition: view(row, rounds, now), changed: false };
    }
    if (rulesLocked(rounds, before, now)) {
      const first = rounds.find((r) => r.frozenAt || r.settledAt) ?? rounds[0];
      throw new AdminActionError(
        `The rules of ${row.name} are fixed: teams locked for ${first ? `${first.name} on ${formatDateTime(lockTime(first, before.lockHours), "UTC")}` : "its first round"}, and new rules would re-judge and rescore them. Create a new competition for new rules.`,
      );
    }
    await checkAffordable(tx, row.id, rules);
    const [updated] = await tx
      .update(competitions)
      .set({ rules })
      .where(eq(competitions.id, row.id))
      .returning();
    await recordAudit(tx, actor, "competition.rules", `competition:${slug}`, {
      from: before,
      to: rules,
    });
    return { competition: view(updated!, rounds, now), changed: true };
  });
}

/**
 * Archives a competition: it leaves the calendar and its rounds are archived; its tables and
 * history stay. Refused while a round is open (close it first), so no player loses a round.
 */
export async function archiveCompetition(
  db: DbOrTx,
  slug: string,
  actor: AdminActor,
  now: Date,
): Promise<{ competition: CompetitionView; changed: boolean }> {
  return db.transaction(async (tx) => {
    const row = await lockCompetition(tx, slug);
    const rounds = (await roundsOf(tx, [row.id])).get(row.id) ?? [];
    if (row.archivedAt) return { competition: view(row, rounds, now), changed: false };
    const open = rounds.find((r) => r.status === "open");
    if (open) {
      throw new AdminActionError(
        `${open.name} (event ${open.id}) is still open: close it first (\`game-admin events status ${open.id} close\`), then archive ${row.name}.`,
      );
    }
    await tx.update(events).set({ status: "archived" }).where(eq(events.competitionId, row.id));
    const [updated] = await tx
      .update(competitions)
      .set({ archivedAt: now })
      .where(eq(competitions.id, row.id))
      .returning();
    await recordAudit(tx, actor, "competition.archive", `competition:${slug}`, {
      rounds: rounds.map((r) => r.id),
    });
    const after = (await roundsOf(tx, [row.id])).get(row.id) ?? [];
    return { competition: view(updated!, after, now), changed: true };
  });
}

export interface CreateRoundInput {
  competition: string;
  name: string;
  startsAt: Date;
  location?: string;
  description?: string;
}

/**
 * Adds a round (closed, without racers) after the competition's last one. A start in the past
 * is refused unless `allowPast` (the CLI's --yes), since its teams would already be locked.
 */
export async function createRound(
  db: DbOrTx,
  input: CreateRoundInput,
  actor: AdminActor,
  opts: { now: Date; allowPast?: boolean },
): Promise<CompetitionRoundView & { competition: string }> {
  const name = input.name.trim();
  if (name.length < 3 || name.length > 100) {
    throw new AdminActionError("A round's name has 3 to 100 characters.");
  }
  const startsAt = input.startsAt;
  if (!(startsAt instanceof Date) || Number.isNaN(startsAt.getTime())) {
    throw new AdminActionError(
      "Give the start time as an ISO date and time, e.g. 2028-05-14T12:00:00Z.",
    );
  }
  if (startsAt < EARLIEST_START || startsAt >= LATEST_START) {
    throw new AdminActionError("The start time must be between the years 2000 and 2099.");
  }
  if (startsAt <= opts.now && !opts.allowPast) {
    throw new AdminActionError(
      `The start time ${formatDateTime(startsAt, "UTC")} has passed: give a future time (or add --yes to record a past round).`,
    );
  }
  return db.transaction(async (tx) => {
    const comp = await lockCompetition(tx, input.competition);
    if (comp.archivedAt) {
      throw new AdminActionError(`${comp.name} is archived: it takes no new rounds.`);
    }
    const [dup] = await tx
      .select({ id: events.id })
      .from(events)
      .where(and(eq(events.competitionId, comp.id), sql`lower(${events.name}) = lower(${name})`));
    if (dup) {
      throw new AdminActionError(
        `${comp.name} already has a round named "${name}" (event ${dup.id}).`,
      );
    }
    const base = competitionSlug(`${comp.slug} ${name}`) || comp.slug;
    const taken = new Set(
      rowsOf<{ slug: string }>(
        await tx.execute(
          sql`select slug from events where slug = ${base} or slug like ${`${base}-%`}`,
        ),
      ).map((r) => r.slug),
    );
    let slug = base;
    for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
    const [row] = await tx
      .insert(events)
      .values({
        slug,
        name,
        competitionId: comp.id,
        location: input.location?.trim() ?? "",
        description: input.description?.trim() ?? "",
        cover: comp.cover || DEFAULT_COVER,
        logo: comp.logo || DEFAULT_LOGO,
        status: "closed",
        startsAt,
      })
      .returning();
    await recordAudit(tx, actor, "event.create", `event:${row!.id}`, {
      competition: comp.slug,
      name,
      round: row!.round,
      startsAt: startsAt.toISOString(),
    });
    const rules = parseRules(comp.rules);
    return {
      competition: comp.slug,
      id: row!.id,
      round: row!.round,
      name: row!.name,
      slug: row!.slug,
      location: row!.location,
      status: row!.status,
      startsAt: row!.startsAt,
      lockAt: lockTime(row!, rules.lockHours),
      frozenAt: null,
      settledAt: null,
      provisional: false,
      racers: 0,
    };
  });
}

export interface CopyRacersSummary {
  from: { id: number; name: string };
  to: { id: number; name: string };
  dryRun: boolean;
  /** Racers entered in the target round, and those it already had (left as they are). */
  copied: number;
  alreadyEntered: number;
  /** Withdrawn racers of the source round are not copied. */
  withdrawn: number;
}

class CopyDryRun extends Error {
  constructor(readonly summary: CopyRacersSummary) {
    super("dry run");
  }
}

/**
 * Enters every starting racer of one round in another (for instance round 1 of next year) at
 * their price in the source round, as the same person, so their history follows them. Racers
 * the target already has keep their entry. The target must not be settled or archived.
 */
export async function copyRacers(
  db: DbOrTx,
  fromEventId: number,
  toEventId: number,
  opts: { actor: AdminActor; dryRun?: boolean; now: Date },
): Promise<CopyRacersSummary> {
  if (fromEventId === toEventId) {
    throw new AdminActionError("Copy racers from one round into another, not into itself.");
  }
  try {
    return await db.transaction(async (tx) => {
      const found = await tx
        .select()
        .from(events)
        .where(sql`${events.id} in (${fromEventId}, ${toEventId})`)
        .for("update");
      const from = found.find((e) => e.id === fromEventId);
      const to = found.find((e) => e.id === toEventId);
      if (!from) throw new AdminActionError(`No event with id ${fromEventId}.`, "not-found");
      if (!to) throw new AdminActionError(`No event with id ${toEventId}.`, "not-found");
      if (to.settledAt || to.status === "archived") {
        throw new AdminActionError(
          `${to.name} has been ${to.settledAt ? "settled" : "archived"}: its racers can no longer change.`,
        );
      }
      const [counts] = rowsOf<{ copied: number; already: number; withdrawn: number }>(
        await tx.execute(sql`
          with src as (
            select r.* from racers r where r.game_id = ${fromEventId} and r.withdrawn_at is null
          ), ins as (
            insert into racers (game_id, person_id, category, first_name, last_name, name_key,
              picture, origin, rank2024, total_point2024, price, created_at, updated_at)
            select ${toEventId}, s.person_id, s.category, s.first_name, s.last_name, s.name_key,
              s.picture, s.origin, s.rank2024, s.total_point2024, s.price,
              ${opts.now.toISOString()}::timestamptz, ${opts.now.toISOString()}::timestamptz
            from src s
            where not exists (
              select 1 from racers t where t.game_id = ${toEventId}
                and (t.person_id = s.person_id or t.name_key = s.name_key))
            order by s.id
            returning id
          )
          select (select count(*)::int from ins) as copied,
            (select count(*)::int from src) - (select count(*)::int from ins) as already,
            (select count(*)::int from racers where game_id = ${fromEventId}
              and withdrawn_at is not null) as withdrawn`),
      );
      const summary: CopyRacersSummary = {
        from: { id: from.id, name: from.name },
        to: { id: to.id, name: to.name },
        dryRun: Boolean(opts.dryRun),
        copied: counts?.copied ?? 0,
        alreadyEntered: counts?.already ?? 0,
        withdrawn: counts?.withdrawn ?? 0,
      };
      await recordAudit(tx, opts.actor, "racers.copy", `event:${toEventId}`, {
        from: fromEventId,
        copied: summary.copied,
        alreadyEntered: summary.alreadyEntered,
      });
      if (opts.dryRun) throw new CopyDryRun(summary);
      return summary;
    });
  } catch (error) {
    if (error instanceof CopyDryRun) return error.summary;
    throw error;
  }
}
