import type { Category } from "./categories.js";
import {
  type CompetitionRules,
  countsAsJunior,
  countsAsWoman,
  DEFAULT_RULES,
  groupMet,
  groupRule,
  splitBench,
  teamLimit,
} from "./rules.js";

/** What the team rules need to know about a racer. */
export interface TeamRacer {
  id: number;
  category: Category;
  price: number;
  gameId: number;
}

export type TeamIssue =
  | { code: "size"; message: string; count: number }
  | { code: "female"; message: string; count: number }
  | { code: "junior"; message: string; count: number }
  | { code: "duplicate"; message: string; racerIds: number[] }
  | { code: "unknown-racer"; message: string; racerIds: number[] }
  | { code: "wrong-event"; message: string; racerIds: number[] }
  | { code: "budget"; message: string; cost: number }
  | { code: "captain"; message: string; racerId: number }
  | { code: "wildcard"; message: string };

export type TeamIssueCode = TeamIssue["code"];

export interface TeamValidation {
  ok: boolean;
  issues: TeamIssue[];
  cost: number;
  bank: number;
}

export function teamCost(racers: readonly Pick<TeamRacer, "price">[]): number {
  return racers.reduce((sum, r) => sum + r.price, 0);
}

/** Bank = budget - cost of the team. Negative when over budget. */
export function bank(
  racers: readonly Pick<TeamRacer, "price">[],
  budget = DEFAULT_RULES.budget,
): number {
  return budget - teamCost(racers);
}

/** Riders of a category that counts as a woman's (the spec's Pro Women and 17-18 Women). */
export function countFemale(
  racers: readonly Pick<TeamRacer, "category">[],
  rules: CompetitionRules = DEFAULT_RULES,
): number {
  return racers.filter((r) => countsAsWoman(rules, r.category)).length;
}

/** Riders of a junior category (the spec's 17-18 Men and 17-18 Women). */
export function countJunior(
  racers: readonly Pick<TeamRacer, "category">[],
  rules: CompetitionRules = DEFAULT_RULES,
): number {
  return racers.filter((r) => countsAsJunior(rules, r.category)).length;
}

/**
 * Validates a team: `racerIds` as submitted, `known` the racers looked up by id (from the
 * database, never from the request). Returns every unmet requirement, not just the first.
 */
export function validateTeam(
  racerIds: readonly number[],
  known: ReadonlyMap<number, TeamRacer> | readonly TeamRacer[],
  opts: {
    gameId: number;
    budget?: number;
    rules?: CompetitionRules;
    /** The captain named (decision 0168): one of the team, and only where the rules have one. */
    captainId?: number | null;
  },
): TeamValidation {
  const rules = opts.rules ?? DEFAULT_RULES;
  const byId: ReadonlyMap<number, TeamRacer> = Array.isArray(known)
    ? new Map((known as readonly TeamRacer[]).map((r) => [r.id, r]))
    : (known as ReadonlyMap<number, TeamRacer>);
  const budget = opts.budget ?? rules.budget;
  const issues: TeamIssue[] = [];

  const seen = new Set<number>();
  const duplicates = new Set<number>();
  for (const id of racerIds) {
    if (seen.has(id)) duplicates.add(id);
    seen.add(id);
  }
  const unique = [...seen];
  const unknown = unique.filter((id) => !byId.has(id));
  const racers = unique.map((id) => byId.get(id)).filter((r): r is TeamRacer => !!r);
  const wrongEvent = racers.filter((r) => r.gameId !== opts.gameId).map((r) => r.id);

  // Where the rules have a bench, a team of one more racer than the starters holds a bench
  // rider (the last slot): the limits judge the starters, the budget the whole team.
  if (racerIds.length !== rules.teamSize && racerIds.length !== teamLimit(rules)) {
    issues.push({
      code: "size",
      count: racerIds.length,
      message: rules.bench
        ? `A team needs exactly ${rules.teamSize} riders, and may add 1 on the bench (you have ${racerIds.length}).`
        : `A team needs exactly ${rules.teamSize} riders (you have ${racerIds.length}).`,
    });
  }
  const startIds = new Set(splitBench(racerIds, rules).starters);
  const starters = racers.filter((r) => startIds.has(r.id));
  const female = countFemale(starters, rules);
  if (!groupMet(rules, "women", female)) {
    issues.push({
      code: "female",
      count: female,
      message: `Pick ${groupRule(rules, "women")!.text}.`,
    });
  }
  const junior = countJunior(starters, rules);
  if (!groupMet(rules, "juniors", junior)) {
    issues.push({
      code: "junior",
      count: junior,
      message: `Pick ${groupRule(rules, "juniors")!.text}.`,
    });
  }
  if (duplicates.size > 0) {
    issues.push({
      code: "duplicate",
      racerIds: [...duplicates],
      message: "A rider can be on your team only once.",
    });
  }
  if (unknown.length > 0) {
    issues.push({ code: "unknown-racer", racerIds: unknown, message: "Unknown rider." });
  }
  if (wrongEvent.length > 0) {
    issues.push({
      code: "wrong-event",
      racerIds: wrongEvent,
      message: "Every rider must race in this event.",
    });
  }
  const cost = teamCost(racers);
  if (cost > budget) {
    issues.push({
      code: "budget",
      cost,
      message: `The team costs more than the ${new Intl.NumberFormat("en-US").format(budget)} budget.`,
    });
  }
  // The captain is one of the starters, never the bench rider.
  const captain = captainIssue(splitBench(racerIds, rules).starters, opts.captainId, rules);
  if (captain) issues.push(captain);
  return { ok: issues.length === 0, issues, cost, bank: budget - cost };
}

/**
 * Why a captain cannot be named (decision 0168): the competition has no captains, or the rider
 * is not on the team. No captain at all is allowed: the team scores without a double.
 */
export function captainIssue(
  racerIds: readonly number[],
  captainId: number | null | undefined,
  rules: CompetitionRules = DEFAULT_RULES,
): Extract<TeamIssue, { code: "captain" }> | null {
  if (captainId == null) return null;
  if (!rules.captain) {
    return { code: "captain", racerId: captainId, message: "This competition has no captains." };
  }
  if (!racerIds.includes(captainId)) {
    return {
      code: "captain",
      racerId: captainId,
      message: "Your captain must be one of your riders.",
    };
  }
  return null;
}

export type AddBlockReason = "already-chosen" | "team-full" | "over-budget" | "wrong-event";

/** Why a racer cannot be added to a team being built (null when it can). */
export function addBlockReason(
  team: readonly TeamRacer[],
  racer: TeamRacer,
  opts: { gameId?: number; budget?: number; rules?: CompetitionRules } = {},
): AddBlockReason | null {
  const rules = opts.rules ?? DEFAULT_RULES;
  if (team.some((r) => r.id === racer.id)) return "already-chosen";
  if (team.length >= teamLimit(rules)) return "team-full";
  if (opts.gameId !== undefined && racer.gameId !== opts.gameId) return "wrong-event";
  if (racer.price > bank(team, opts.budget ?? rules.budget)) return "over-budget";
  return null;
}

/** The message for a blocked add, in the rules' words. */
export function addBlockMessage(
  reason: AddBlockReason,
  rules: CompetitionRules = DEFAULT_RULES,
): string {
  if (reason === "team-full") {
    return rules.bench
      ? `Your team already has ${rules.teamSize} riders and a bench rider`
      : `Your team already has ${rules.teamSize} riders`;
  }
  return ADD_BLOCK_MESSAGES[reason];
}

/** The spec's messages (the game's default rules). */
export const ADD_BLOCK_MESSAGES: Record<AddBlockReason, string> = {
  "already-chosen": "Already on your team",
  "team-full": "Your team already has 6 riders",
  "over-budget": "Not enough money left in your bank",
  "wrong-event": "This rider is not in this event",
};

export interface Requirement {
  id: "size" | "female" | "junior" | "budget";
  label: string;
  met: boolean;
  detail: string;
}

/**
 * The live checklist shown while building a team. A group the rules leave free (no minimum, no
 * maximum that a team could reach) is not listed.
 */
export function requirementChecklist(
  team: readonly Pick<TeamRacer, "category" | "price">[],
  budget?: number,
  rules: CompetitionRules = DEFAULT_RULES,
): Requirement[] {
  const limit = budget ?? rules.budget;
  const cost = teamCost(team);
  // The limits judge the starters; a bench rider (decision 0169) is optional.
  const { starters, bench } = splitBench(team, rules);
  const list: Requirement[] = [
    {
      id: "size",
      label: `${rules.teamSize} riders`,
      met: starters.length === rules.teamSize && team.length <= teamLimit(rules),
      detail: `${starters.length}/${rules.teamSize}${rules.bench ? `, bench ${bench ? 1 : 0}/1` : ""}`,
    },
  ];
  for (const [id, group, have] of [
    ["female", "women", countFemale(starters, rules)],
    ["junior", "juniors", countJunior(starters, rules)],
  ] as const) {
    const rule = groupRule(rules, group);
    if (!rule) continue;
    const g = rules[group];
    list.push({
      id,
      label: rule.short,
      met: groupMet(rules, group, have),
      detail: `${have}/${g.min > 0 ? g.min : g.max}`,
    });
  }
  list.push({
    id: "budget",
    label: "Within budget",
    met: cost <= limit,
    detail: `${new Intl.NumberFormat("en-US").format(limit - cost)} left`,
  });
  return list;
}

/** A racer as the bench rule needs them: who they are and their category. */
export interface SubRacer {
  id: number;
  category: Category;
}

/**
 * Whether a racer started, for the bench rule, from their result (null: none yet). Final
 * results: no result is no start. Provisional ones (docs/decisions/0171): a racer without a
 * result has not run yet, so only a DNS counts as not starting.
 */
export function startedRace(status: string | null, provisional = false): boolean {
  return status === null ? provisional : status !== "DNS";
}

/**
 * Who the bench rider comes on for (docs/decisions/0169): a starter who did not start, whose
 * place the bench rider (who did start) can take with the team still within the women and junior
 * limits; of several, the lowest racer id (the same answer whatever order the team is read in:
 * non-starters all score the same). Null without a bench rule, a bench rider or a substitution.
 */
export function autoSub(
  starters: readonly SubRacer[],
  bench: SubRacer | null | undefined,
  started: (racerId: number) => boolean,
  rules: CompetitionRules = DEFAULT_RULES,
): number | null {
  if (!rules.bench || !bench || !started(bench.id)) return null;
  const out = [...starters]
    .sort((a, b) => a.id - b.id)
    .find((s) => {
      if (started(s.id)) return false;
      const team = starters.map((r) => (r.id === s.id ? bench : r));
      return (
        groupMet(rules, "women", countFemale(team, rules)) &&
        groupMet(rules, "juniors", countJunior(team, rules))
      );
    });
  return out?.id ?? null;
}

/** A team's transfers in one round (docs/decisions/0170). */
export interface TransferRound {
  /** Free changes this round; null when changes are unlimited (no rule, or the team's first round). */
  available: number | null;
  /** Changes made: racers on the team this round who were not on it the round before. */
  changes: number;
  /** Changes beyond the free ones. */
  extra: number;
  /** Points taken off the round's score. */
  cost: number;
  /** Free changes kept for the next round (before its own); null without a rule. */
  left: number | null;
}

/**
 * The transfer account of one round: from what the team kept after its previous round (`left`;
 * null when it played none: its first round's picks are free), the changes made and whether the
 * wildcard is played (all free, the kept ones kept). FPL's rule: `free` a round, unused ones kept
 * up to `bank`, `cost` points per extra change.
 */
export function transferRound(
  leftBefore: number | null,
  changes: number,
  wildcard: boolean,
  rules: CompetitionRules = DEFAULT_RULES,
): TransferRound {
  const t = rules.transfers;
  if (!t) return { available: null, changes, extra: 0, cost: 0, left: null };
  if (leftBefore === null) return { available: null, changes, extra: 0, cost: 0, left: 0 };
  const available = Math.min(t.bank, leftBefore + t.free);
  if (wildcard && rules.wildcard) {
    return { available, changes, extra: 0, cost: 0, left: available };
  }
  const extra = Math.max(0, changes - available);
  return { available, changes, extra, cost: extra * t.cost, left: available - (changes - extra) };
}
