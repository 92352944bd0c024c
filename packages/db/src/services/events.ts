import { type CompetitionRules, competitionRulesSchema } from "@game/core";
import { asc, eq, getTableColumns } from "drizzle-orm";
import type { DbOrTx } from "../client.js";
import { competitions, events } from "../schema/index.js";

/**
 * A round with what it takes from its competition (docs/decisions/0156): the competition's name
 * and slug for the pages, and its lock hours, so core's `lockTime(event)` locks it as its rules
 * say wherever the row goes.
 */
export type EventRow = typeof events.$inferSelect & {
  competitionName: string;
  competitionSlug: string;
  lockHours: number;
  /** The competition's rules, checked (every team of the round is judged by them). */
  rules: CompetitionRules;
};

/**
 * A competition's stored rules, checked by the one schema. A row that does not parse (edited by
 * hand) fails loudly rather than judging teams by rules nobody set.
 */
export function parseRules(raw: unknown): CompetitionRules {
  const parsed = competitionRulesSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(
      `A competition's stored rules are not valid: ${parsed.error.issues.map((i) => i.message).join(" ")}`,
    );
  }
  return parsed.data;
}

const eventColumns = {
  ...getTableColumns(events),
  competitionName: competitions.name,
  competitionSlug: competitions.slug,
  rules: competitions.rules,
};

function withLock<R extends { rules: unknown }>(
  row: R,
): Omit<R, "rules"> & { lockHours: number; rules: CompetitionRules } {
  const rules = parseRules(row.rules);
  return { ...row, rules, lockHours: rules.lockHours };
}

/** All events, in id order. */
export async function listEvents(db: DbOrTx): Promise<EventRow[]> {
  const rows = await db
    .select(eventColumns)
    .from(events)
    .innerJoin(competitions, eq(competitions.id, events.competitionId))
    .orderBy(asc(events.id));
  return rows.map(withLock);
}

export async function getEvent(db: DbOrTx, id: number): Promise<EventRow | undefined> {
  if (!Number.isSafeInteger(id)) return undefined;
  const [row] = await db
    .select(eventColumns)
    .from(events)
    .innerJoin(competitions, eq(competitions.id, events.competitionId))
    .where(eq(events.id, id));
  return row ? withLock(row) : undefined;
}
