/*
 * Competitions as data (docs/decisions/0156): a named season of rounds (a series such as "Pro
 * Downhill Series 2027", or a one-off race) with its own rules. What is decided from a
 * competition's rows alone lives here: its state, its slug, when its rules stop changing, and
 * the cheapest team its rules allow from a round's racers.
 */
import { z } from "zod";
import { type EventStatus, lockTime } from "./events.js";
import {
  type CompetitionRules,
  countsAsJunior,
  countsAsWoman,
  DISCIPLINE_SHORT,
  DISCIPLINES,
} from "./rules.js";

export const COMPETITION_STATES = ["upcoming", "live", "finished", "archived"] as const;
export type CompetitionState = (typeof COMPETITION_STATES)[number];

export interface CompetitionRound {
  status: EventStatus;
  startsAt: Date | string | number;
  frozenAt?: Date | string | number | null;
  settledAt?: Date | string | number | null;
}

/**
 * Where a competition stands, from its rounds: `archived` once an admin archives it; `finished`
 * when every round is settled or archived; `live` once a round is open or has been played;
 * `upcoming` before (no rounds yet, or none opened).
 */
export function competitionState(
  competition: { archivedAt?: Date | string | number | null },
  rounds: readonly CompetitionRound[],
): CompetitionState {
  if (competition.archivedAt != null) return "archived";
  if (rounds.length === 0) return "upcoming";
  const played = (r: CompetitionRound) => r.settledAt != null || r.status === "archived";
  if (rounds.every(played)) return "finished";
  if (rounds.some((r) => played(r) || r.status === "open" || r.frozenAt != null)) return "live";
  return "upcoming";
}

/**
 * Whether the rules are fixed: from the first lock of any round on (or once a round has been
 * frozen or played), changing them would rescore or re-judge teams already final.
 */
export function rulesLocked(
  rounds: readonly CompetitionRound[],
  rules: Pick<CompetitionRules, "lockHours">,
  now: Date | number,
): boolean {
  const t = typeof now === "number" ? now : now.getTime();
  return rounds.some(
    (r) =>
      r.frozenAt != null ||
      r.settledAt != null ||
      r.status === "archived" ||
      lockTime(r, rules.lockHours).getTime() <= t,
  );
}

/** "Pro Downhill Series 2028" -> "pro-downhill-series-2028" (letters and digits, dashed). */
export function competitionSlug(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/g, "");
}

/** A discipline from the CLI's short names or the full ones; undefined when unknown. */
export function parseDiscipline(value: string): (typeof DISCIPLINES)[number] | undefined {
  return DISCIPLINE_SHORT[value.trim().toLowerCase()];
}

/** What an admin gives to create a competition (the rules are checked by their own schema). */
export const competitionInputSchema = z.object({
  name: z
    .string()
    .trim()
    .min(3, "A competition's name has at least 3 characters.")
    .max(80, "A competition's name has at most 80 characters.")
    .refine((n) => competitionSlug(n).length > 0, "A competition's name needs a letter or digit."),
  discipline: z.enum(DISCIPLINES, {
    error: `The discipline is one of: ${Object.keys(DISCIPLINE_SHORT).join(", ")}.`,
  }),
  season: z.string().trim().max(20, "The season label has at most 20 characters.").default(""),
  description: z.string().trim().max(1000).default(""),
});
export type CompetitionInput = z.infer<typeof competitionInputSchema>;

/** The rule changes the CLI's flags and the dashboard's form name (absent: unchanged). */
export interface RuleChanges {
  teamSize?: number;
  budget?: number;
  minWomen?: number;
  /** null: no maximum. */
  maxWomen?: number | null;
  minJuniors?: number;
  maxJuniors?: number | null;
  lockHours?: number;
  /** Whether each team names a captain whose points count double. */
  captain?: boolean;
  /** Whether a team may hold a bench rider, who scores for a starter who does not start. */
  bench?: boolean;
  /**
   * Limited changes between rounds: `free` a round, unused ones kept up to `bank`, each extra
   * change `cost` points. null: unlimited.
   */
  transfers?: { free: number; bank: number; cost: number } | null;
  /** Whether a team may once play a wildcard, making one round's changes all free. */
  wildcard?: boolean;
}

/** `base` with the changes applied; check the result with `competitionRulesSchema`. */
export function withRuleChanges(base: CompetitionRules, changes: RuleChanges): CompetitionRules {
  return {
    ...base,
    teamSize: changes.teamSize ?? base.teamSize,
    budget: changes.budget ?? base.budget,
    lockHours: changes.lockHours ?? base.lockHours,
    captain: changes.captain ?? base.captain,
    bench: changes.bench ?? base.bench,
    transfers:
      changes.transfers === undefined
        ? base.transfers
        : changes.transfers && { ...changes.transfers },
    wildcard: changes.wildcard ?? base.wildcard,
    women: {
      min: changes.minWomen ?? base.women.min,
      max: changes.maxWomen === undefined ? base.women.max : changes.maxWomen,
    },
    juniors: {
      min: changes.minJuniors ?? base.juniors.min,
      max: changes.maxJuniors === undefined ? base.juniors.max : changes.maxJuniors,
    },
  };
}

/**
 * The cost of the cheapest team the rules allow from these racers (withdrawn ones left out by
 * the caller), or null when no team can be made from them. A team is the cheapest riders of
 * each kind (woman or not, junior or not) for some split of the team size that meets the group
 * limits, so every split is tried.
 */
export function cheapestTeamCost(
  rules: CompetitionRules,
  racers: readonly { category: string; price: number }[],
): number | null {
  const kinds: number[][] = [[], [], [], []];
  for (const r of racers) {
    if (!rules.categories.some((c) => c.name === r.category)) continue;
    const w = countsAsWoman(rules, r.category);
    const j = countsAsJunior(rules, r.category);
    kinds[(w ? 2 : 0) + (j ? 1 : 0)]!.push(r.price);
  }
  // Prefix sums of each kind's prices, cheapest first.
  const sums = kinds.map((prices) => {
    const sorted = [...prices].sort((a, b) => a - b);
    const out = [0];
    for (const p of sorted) out.push(out.at(-1)! + p);
    return out;
  });
  const within = (v: number, g: { min: number; max: number | null }) =>
    v >= g.min && (g.max === null || v <= g.max);
  const n = rules.teamSize;
  let best: number | null = null;
  // [plain, junior, woman, woman junior]
  for (let wj = 0; wj < sums[3]!.length && wj <= n; wj++) {
    for (let w = 0; w < sums[2]!.length && wj + w <= n; w++) {
      for (let j = 0; j < sums[1]!.length && wj + w + j <= n; j++) {
        const rest = n - wj - w - j;
        if (rest >= sums[0]!.length) continue;
        if (!within(wj + w, rules.women) || !within(wj + j, rules.juniors)) continue;
        const cost = sums[3]![wj]! + sums[2]![w]! + sums[1]![j]! + sums[0]![rest]!;
        if (best === null || cost < best) best = cost;
      }
    }
  }
  return best;
}
