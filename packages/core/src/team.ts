import { type Category, isFemale, isJunior } from "./categories.js";
import { BUDGET, MIN_FEMALE, MIN_JUNIOR, TEAM_SIZE } from "./constants.js";

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
  | { code: "budget"; message: string; cost: number };

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
export function bank(racers: readonly Pick<TeamRacer, "price">[], budget = BUDGET): number {
  return budget - teamCost(racers);
}

export function countFemale(racers: readonly Pick<TeamRacer, "category">[]): number {
  return racers.filter((r) => isFemale(r.category)).length;
}

export function countJunior(racers: readonly Pick<TeamRacer, "category">[]): number {
  return racers.filter((r) => isJunior(r.category)).length;
}

/**
 * Validates a team: `racerIds` as submitted, `known` the racers looked up by id (from the
 * database, never from the request). Returns every unmet requirement, not just the first.
 */
export function validateTeam(
  racerIds: readonly number[],
  known: ReadonlyMap<number, TeamRacer> | readonly TeamRacer[],
  opts: { gameId: number; budget?: number },
): TeamValidation {
  const byId: ReadonlyMap<number, TeamRacer> = Array.isArray(known)
    ? new Map((known as readonly TeamRacer[]).map((r) => [r.id, r]))
    : (known as ReadonlyMap<number, TeamRacer>);
  const budget = opts.budget ?? BUDGET;
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

  if (racerIds.length !== TEAM_SIZE) {
    issues.push({
      code: "size",
      count: racerIds.length,
      message: `A team needs exactly ${TEAM_SIZE} riders (you have ${racerIds.length}).`,
    });
  }
  const female = countFemale(racers);
  if (female < MIN_FEMALE) {
    issues.push({
      code: "female",
      count: female,
      message: `Pick at least ${MIN_FEMALE} female riders (Pro Women or 17-18 Women).`,
    });
  }
  const junior = countJunior(racers);
  if (junior < MIN_JUNIOR) {
    issues.push({
      code: "junior",
      count: junior,
      message: `Pick at least ${MIN_JUNIOR} junior rider (17-18 Men or 17-18 Women).`,
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
  return { ok: issues.length === 0, issues, cost, bank: budget - cost };
}

export type AddBlockReason = "already-chosen" | "team-full" | "over-budget" | "wrong-event";

/** Why a racer cannot be added to a team being built (null when it can). */
export function addBlockReason(
  team: readonly TeamRacer[],
  racer: TeamRacer,
  opts: { gameId?: number; budget?: number } = {},
): AddBlockReason | null {
  if (team.some((r) => r.id === racer.id)) return "already-chosen";
  if (team.length >= TEAM_SIZE) return "team-full";
  if (opts.gameId !== undefined && racer.gameId !== opts.gameId) return "wrong-event";
  if (racer.price > bank(team, opts.budget ?? BUDGET)) return "over-budget";
  return null;
}

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

/** The live checklist shown while building a team. */
export function requirementChecklist(
  team: readonly Pick<TeamRacer, "category" | "price">[],
  budget = BUDGET,
): Requirement[] {
  const female = countFemale(team);
  const junior = countJunior(team);
  const cost = teamCost(team);
  return [
    {
      id: "size",
      label: `${TEAM_SIZE} riders`,
      met: team.length === TEAM_SIZE,
      detail: `${team.length}/${TEAM_SIZE}`,
    },
    {
      id: "female",
      label: `At least ${MIN_FEMALE} female riders`,
      met: female >= MIN_FEMALE,
      detail: `${female}/${MIN_FEMALE}`,
    },
    {
      id: "junior",
      label: `At least ${MIN_JUNIOR} junior rider`,
      met: junior >= MIN_JUNIOR,
      detail: `${junior}/${MIN_JUNIOR}`,
    },
    {
      id: "budget",
      label: "Within budget",
      met: cost <= budget,
      detail: `${new Intl.NumberFormat("en-US").format(budget - cost)} left`,
    },
  ];
}
