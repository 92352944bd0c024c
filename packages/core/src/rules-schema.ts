/*
 * The zod schema of a competition's rules (docs/decisions/0155): the shape, the bounds and what
 * makes a set of rules playable. Kept apart from `rules.ts` so that a page using the rules (the
 * team builder's checklist, the default game) does not ship zod (docs/decisions/0164).
 */
import { z } from "zod";
import { MAX_TEAM_SIZE } from "./constants.js";

const count = z.number().int().min(0).max(50);

const groupSchema = z.object({
  min: count,
  /** null: no maximum. */
  max: count.nullable(),
});

const categorySchema = z.object({
  name: z.string().trim().min(1, "A category needs a name.").max(40),
  women: z.boolean(),
  junior: z.boolean(),
});

const points = z.number().int().min(0).max(10_000);
const pointsSchema = z.object({
  first: points,
  second: points,
  third: points,
  topTen: points,
  finisher: points,
  none: points,
});

const money = z.number().int().min(1_000).max(1_000_000_000);

/** The shape of a competition's rules, and what makes them playable. */
export const competitionRulesSchema = z
  .object({
    teamSize: z
      .number()
      .int()
      .min(1, "A team needs at least 1 rider.")
      .max(MAX_TEAM_SIZE, `A team has at most ${MAX_TEAM_SIZE} riders.`),
    budget: money,
    categories: z.array(categorySchema).min(1).max(12),
    women: groupSchema,
    juniors: groupSchema,
    points: pointsSchema,
    lockHours: z.number().int().min(0).max(168),
    pricing: z.object({ min: money, max: money }),
    /**
     * A team names a captain whose points count double (docs/decisions/0168). Off in the spec's
     * game; rules stored before it existed read as off.
     */
    captain: z.boolean().default(false),
    /**
     * A team may hold one more racer on the bench, within the same budget, who scores for a
     * starter who does not start (docs/decisions/0169). Off in the spec's game.
     */
    bench: z.boolean().default(false),
    /**
     * Limited changes between rounds (docs/decisions/0170): `free` changes a round, unused ones
     * kept up to `bank`, each extra change `cost` points. Null: unlimited (the spec's game).
     */
    transfers: z
      .object({
        free: z.number().int().min(0).max(20),
        bank: z.number().int().min(0).max(50),
        cost: z.number().int().min(0).max(1_000),
      })
      .nullable()
      .default(null),
    /** Once per competition, one round's changes are all free (docs/decisions/0170). */
    wildcard: z.boolean().default(false),
  })
  .superRefine((rules, ctx) => {
    const issue = (message: string, path: (string | number)[]) =>
      ctx.addIssue({ code: "custom", message, path });
    const names = rules.categories.map((c) => c.name.toLowerCase());
    if (new Set(names).size !== names.length) {
      issue("Each category is named once.", ["categories"]);
    }
    for (const [key, word] of [
      ["women", "women"],
      ["juniors", "juniors"],
    ] as const) {
      const g = rules[key];
      if (g.min > rules.teamSize) {
        issue(`The minimum of ${word} (${g.min}) is more than the team size (${rules.teamSize}).`, [
          key,
          "min",
        ]);
      }
      if (g.max !== null && g.max < g.min) {
        issue(`The maximum of ${word} (${g.max}) is below the minimum (${g.min}).`, [key, "max"]);
      }
    }
    const p = rules.points;
    if (
      !(
        p.first >= p.second &&
        p.second >= p.third &&
        p.third >= p.topTen &&
        p.topTen >= p.finisher &&
        p.finisher >= p.none
      )
    ) {
      issue("Points must not rise with a worse result.", ["points"]);
    }
    if (rules.transfers && rules.transfers.bank < rules.transfers.free) {
      issue("The free transfers kept must be at least the free transfers of a round.", [
        "transfers",
        "bank",
      ]);
    }
    if (rules.wildcard && !rules.transfers) {
      issue("A wildcard needs limited transfers: with unlimited changes it would change nothing.", [
        "wildcard",
      ]);
    }
    if (rules.pricing.min > rules.pricing.max) {
      issue("The lowest price is above the highest.", ["pricing"]);
    }
    if (!canBeMet(rules)) {
      issue(
        "No team can meet these rules with the categories offered (check the minimums and maximums).",
        ["categories"],
      );
    }
  });

/** A competition's rules, as the schema checks them. */
export type CompetitionRules = z.infer<typeof competitionRulesSchema>;

/**
 * Whether any team of `teamSize` riders from the categories offered meets the group limits:
 * counts of the four kinds of category (woman or not, junior or not), tried exhaustively (a team
 * has at most 20 riders, so at most 1,771 splits).
 */
function canBeMet(rules: CompetitionRules): boolean {
  const has = (women: boolean, junior: boolean) =>
    rules.categories.some((c) => c.women === women && c.junior === junior);
  const n = rules.teamSize;
  const within = (v: number, g: { min: number; max: number | null }) =>
    v >= g.min && (g.max === null || v <= g.max);
  for (let wj = 0; wj <= n; wj++) {
    if (wj > 0 && !has(true, true)) break;
    for (let w = 0; w + wj <= n; w++) {
      if (w > 0 && !has(true, false)) break;
      for (let j = 0; j + w + wj <= n; j++) {
        if (j > 0 && !has(false, true)) break;
        const rest = n - wj - w - j;
        if (rest > 0 && !has(false, false)) continue;
        if (within(wj + w, rules.women) && within(wj + j, rules.juniors)) return true;
      }
    }
  }
  return false;
}
