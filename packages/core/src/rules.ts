/*
 * A competition's rules as data (docs/decisions/0155): team size, budget, the categories offered
 * (each counting as a woman's and/or a junior category), minimum and maximum per group, the
 * points table, the lock and the pricing rule's bounds. One zod schema (`rules-schema.ts`, apart so
 * that the browser's team builder ships no zod) checks them wherever they come from (the CLI, the
 * dashboard, the database); the spec's game is `DEFAULT_RULES`, and the team rule
 * (`validateTeam`), the checklist, scoring, the lock and pricing take a rules object.
 */
import { CATEGORIES, isFemale, isJunior } from "./categories.js";
import { BUDGET, LOCK_HOURS, MIN_FEMALE, MIN_JUNIOR, TEAM_SIZE } from "./constants.js";
import { PRICE_MAX, PRICE_MIN } from "./pricing.js";
import type { CompetitionRules } from "./rules-schema.js";
import { POINTS } from "./scoring.js";

export const DISCIPLINES = ["downhill", "cross-country", "enduro", "freeride", "other"] as const;
export type Discipline = (typeof DISCIPLINES)[number];

/** The CLI's short names for the disciplines (`--discipline dh|xc|enduro|freeride|other`). */
export const DISCIPLINE_SHORT: Readonly<Record<string, Discipline>> = {
  dh: "downhill",
  downhill: "downhill",
  xc: "cross-country",
  "cross-country": "cross-country",
  enduro: "enduro",
  freeride: "freeride",
  other: "other",
};

export { MAX_TEAM_SIZE } from "./constants.js";
export type { CompetitionRules } from "./rules-schema.js";

export type RulesCategory = CompetitionRules["categories"][number];

/** The spec's game: six riders, 1,000,000, at least 2 women and 1 junior, 12 hours' lock. */
export const DEFAULT_RULES: CompetitionRules = Object.freeze({
  teamSize: TEAM_SIZE,
  budget: BUDGET,
  categories: CATEGORIES.map((name) => ({
    name,
    women: isFemale(name),
    junior: isJunior(name),
  })),
  women: { min: MIN_FEMALE, max: null },
  juniors: { min: MIN_JUNIOR, max: null },
  points: { ...POINTS },
  lockHours: LOCK_HOURS,
  pricing: { min: PRICE_MIN, max: PRICE_MAX },
  captain: false,
  bench: false,
  transfers: null,
  wildcard: false,
}) as CompetitionRules;

/** The category named, in these rules (case as offered), or undefined. */
export function rulesCategory(rules: CompetitionRules, name: string): RulesCategory | undefined {
  return rules.categories.find((c) => c.name === name);
}

export function countsAsWoman(rules: CompetitionRules, category: string): boolean {
  return rulesCategory(rules, category)?.women ?? false;
}

export function countsAsJunior(rules: CompetitionRules, category: string): boolean {
  return rulesCategory(rules, category)?.junior ?? false;
}

const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

/** "Pro Women or 17-18 Women": the categories of a group, as the rules' messages name them. */
function groupNames(rules: CompetitionRules, key: "women" | "junior"): string {
  const names = rules.categories.filter((c) => c[key]).map((c) => c.name);
  return names.length <= 1
    ? (names[0] ?? "none offered")
    : `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
}

/** What a group needs, in words: the spec's "at least 2 female riders" by default. */
export function groupRule(
  rules: CompetitionRules,
  group: "women" | "juniors",
): { text: string; short: string } | null {
  const g = rules[group];
  const noun =
    group === "women" ? ["female rider", "female riders"] : ["junior rider", "junior riders"];
  const n = (v: number) => `${v} ${plural(v, noun[0]!, noun[1]!)}`;
  const names = groupNames(rules, group === "women" ? "women" : "junior");
  if (g.min === 0 && (g.max === null || g.max >= rules.teamSize)) return null;
  if (g.max !== null && g.max === g.min) {
    return { text: `exactly ${n(g.min)} (${names})`, short: `Exactly ${n(g.min)}` };
  }
  if (g.min === 0)
    return { text: `at most ${n(g.max!)} (${names})`, short: `At most ${n(g.max!)}` };
  if (g.max === null)
    return { text: `at least ${n(g.min)} (${names})`, short: `At least ${n(g.min)}` };
  return {
    text: `between ${g.min} and ${n(g.max)} (${names})`,
    short: `${g.min} to ${n(g.max)}`,
  };
}

/** Whether `v` riders of the group are within the rules. */
export function groupMet(rules: CompetitionRules, group: "women" | "juniors", v: number): boolean {
  const g = rules[group];
  return v >= g.min && (g.max === null || v <= g.max);
}

/** The captain rule in words (About, competition pages, the team builder). */
export const CAPTAIN_RULE = "Name one rider of your team captain: their points count double.";

/** The bench rule in words (About, competition pages, the team builder). */
export const BENCH_RULE =
  "You may add one more rider on the bench, within your budget: if a starter does not start, the bench rider scores instead, when your team still meets the rules with them in that place.";

/** The transfer rule in words (docs/decisions/0170). */
export function transfersRule(t: NonNullable<CompetitionRules["transfers"]>): string {
  const free = `${t.free} free ${plural(t.free, "change", "changes")}`;
  const kept = t.bank > t.free ? `; unused ones are kept, up to ${t.bank}` : "";
  const cost = t.cost > 0 ? `each extra change costs ${t.cost} points` : "extra changes are free";
  return `From round 2, your team has ${free} a round${kept}; ${cost}. Your first round's picks are free.`;
}

/** The wildcard rule in words (docs/decisions/0170). */
export const WILDCARD_RULE =
  "Once per competition you can play your wildcard: that round's changes are all free.";

/** The most riders a team holds: its starters, and a bench rider where the rules have one. */
export function teamLimit(rules: CompetitionRules): number {
  return rules.teamSize + (rules.bench ? 1 : 0);
}

/**
 * A team's starters and its bench rider (docs/decisions/0169): where the rules have a bench, the
 * racer in the slot after the starters sits on it.
 */
export function splitBench<T>(
  team: readonly T[],
  rules: CompetitionRules,
): { starters: T[]; bench: T | null } {
  return rules.bench && team.length > rules.teamSize
    ? { starters: team.slice(0, rules.teamSize), bench: team[rules.teamSize] ?? null }
    : { starters: [...team], bench: null };
}

/** The rules in plain words, for the About and competition pages (one line each). */
export function describeRules(rules: CompetitionRules): string[] {
  const money = new Intl.NumberFormat("en-US", {
    style: "currency",
    currency: "USD",
    maximumFractionDigits: 0,
  });
  const lines = [
    `Pick exactly ${rules.teamSize} ${plural(rules.teamSize, "rider", "riders")} within a ${money.format(rules.budget)} budget.`,
  ];
  for (const group of ["women", "juniors"] as const) {
    const r = groupRule(rules, group);
    if (r) lines.push(`Your team has ${r.text}.`);
  }
  const p = rules.points;
  lines.push(
    `Points per rider: ${p.first} for a win, ${p.second} for 2nd, ${p.third} for 3rd, ${p.topTen} for 4th to 10th, ${p.finisher} for any other finish, ${p.none} without a finish.`,
    ...(rules.captain ? [CAPTAIN_RULE] : []),
    ...(rules.bench ? [BENCH_RULE] : []),
    ...(rules.transfers ? [transfersRule(rules.transfers)] : []),
    ...(rules.wildcard ? [WILDCARD_RULE] : []),
    `Teams lock ${rules.lockHours} ${plural(rules.lockHours, "hour", "hours")} before each round starts.`,
    `Prices move between ${money.format(rules.pricing.min)} and ${money.format(rules.pricing.max)} by the published rule.`,
  );
  return lines;
}
