/**
 * The forms of the competitions page (`/admin/competitions`): one schema each, told apart by
 * `intent`, read by the action on every post (with or without JavaScript). What a name, a
 * discipline and a set of rules may be is core's (`competitionInputSchema`,
 * `competitionRulesSchema`); these schemas read the fields and say which one is wrong.
 */
import { type RuleChanges, withRuleChanges } from "@game/core/competitions";
import { parseCount } from "@game/core/csv";
import { type CompetitionRules, DEFAULT_RULES, MAX_TEAM_SIZE } from "@game/core/rules";
import { competitionRulesSchema } from "@game/core/rules-schema";
import { z } from "zod";
import { isTimeZone } from "./time";

export const COMPETITION_INTENTS = ["create", "rules", "archive", "round", "copy"] as const;
export type CompetitionIntent = (typeof COMPETITION_INTENTS)[number];

/** The rule fields typed as numbers, as the forms name them (the CLI's flags, camel-cased). */
export const RULE_NUMBER_FIELDS = [
  "teamSize",
  "budget",
  "minWomen",
  "maxWomen",
  "minJuniors",
  "maxJuniors",
  "lockHours",
] as const;
export type RuleNumberField = (typeof RULE_NUMBER_FIELDS)[number];

/**
 * The rule fields that are checkboxes (the CLI's `--captain`, `--bench`, `--transfers` limited or
 * unlimited, `--wildcard`), ticked when on.
 */
export const RULE_CHECKBOX_FIELDS = ["captain", "bench", "transfers", "wildcard"] as const;
export type RuleCheckboxField = (typeof RULE_CHECKBOX_FIELDS)[number];

/**
 * The numbers of limited transfers (the CLI's `--transfers free:bank:cost`), read only when the
 * `transfers` box is ticked; empty reads as `TRANSFER_DEFAULTS`.
 */
export const RULE_TRANSFER_FIELDS = ["transfersFree", "transfersBank", "transfersCost"] as const;
export type RuleTransferField = (typeof RULE_TRANSFER_FIELDS)[number];

/** What an empty transfer number reads as: 1 free change a round, 5 kept, 4 points an extra. */
export const TRANSFER_DEFAULTS: Readonly<Record<RuleTransferField, number>> = {
  transfersFree: 1,
  transfersBank: 5,
  transfersCost: 4,
};

/** Every rule field: the numbers, the checkboxes and the transfer numbers. */
export const RULE_FIELDS = [
  ...RULE_NUMBER_FIELDS,
  ...RULE_CHECKBOX_FIELDS,
  ...RULE_TRANSFER_FIELDS,
] as const;
export type RuleField = (typeof RULE_FIELDS)[number];

/** What a ticked checkbox posts (an unticked one posts nothing). */
export const CHECKED = "on";

/** Whether a checkbox's posted value means ticked. */
export function isChecked(raw: string | undefined): boolean {
  return [CHECKED, "true", "yes", "1"].includes((raw ?? "").trim().toLowerCase());
}

/**
 * The rule fields' values as the form shows them ("" for no maximum; a checkbox `CHECKED` when
 * on, "" when off; the transfer numbers "" while transfers are unlimited).
 */
export function ruleFieldValues(rules: CompetitionRules): Record<RuleField, string> {
  const text = (n: number | null) => (n === null ? "" : String(n));
  return {
    teamSize: String(rules.teamSize),
    budget: String(rules.budget),
    minWomen: String(rules.women.min),
    maxWomen: text(rules.women.max),
    minJuniors: String(rules.juniors.min),
    maxJuniors: text(rules.juniors.max),
    lockHours: String(rules.lockHours),
    captain: rules.captain ? CHECKED : "",
    bench: rules.bench ? CHECKED : "",
    transfers: rules.transfers ? CHECKED : "",
    transfersFree: text(rules.transfers?.free ?? null),
    transfersBank: text(rules.transfers?.bank ?? null),
    transfersCost: text(rules.transfers?.cost ?? null),
    wildcard: rules.wildcard ? CHECKED : "",
  };
}

/** What a new competition's form starts with: the spec's rules. */
export const DEFAULT_RULE_VALUES = ruleFieldValues(DEFAULT_RULES);

interface WholeNumberText {
  /** The message for an empty field; null: empty means no maximum (null). */
  required: string | null;
  notWhole: string;
  min: number;
  max: number;
  range: string;
}

/**
 * Reads a whole number in `min..max` ("1,500,000" and "$1500000" read as 1500000); a problem is
 * the field's own, or `path`'s when read for the whole form.
 */
function readWhole(
  raw: string | undefined,
  opts: WholeNumberText,
  ctx: z.RefinementCtx,
  path?: string,
) {
  const issue = (message: string) =>
    ctx.addIssue({ code: "custom", message, ...(path ? { path: [path] } : {}) });
  const text = (raw ?? "").trim();
  if (text === "") {
    if (opts.required === null) return null;
    issue(opts.required);
    return z.NEVER;
  }
  const n = parseCount(text);
  if (n === undefined) {
    issue(opts.notWhole);
    return z.NEVER;
  }
  if (n < opts.min || n > opts.max) {
    issue(opts.range);
    return z.NEVER;
  }
  return n;
}

/** A whole number that must be given. */
const wholeNumber = (opts: WholeNumberText & { required: string }) =>
  z
    .string()
    .optional()
    .transform((raw, ctx): number => readWhole(raw, opts, ctx) as number);

/** A maximum: a whole number, or empty for none (null). */
const maximum = (opts: WholeNumberText & { required: null }) =>
  z
    .string()
    .optional()
    .transform((raw, ctx): number | null => readWhole(raw, opts, ctx));

const groupMinimum = (word: string) =>
  wholeNumber({
    required: `Give the minimum of ${word} (0 for no minimum).`,
    notWhole: `Give the minimum of ${word} as a whole number (0 for no minimum).`,
    min: 0,
    max: MAX_TEAM_SIZE,
    range: `The minimum of ${word} is 0 to ${MAX_TEAM_SIZE}.`,
  });

const groupMaximum = (word: string) =>
  maximum({
    required: null,
    notWhole: `Give the maximum of ${word} as a whole number, or leave it empty for no maximum.`,
    min: 0,
    max: MAX_TEAM_SIZE,
    range: `The maximum of ${word} is 0 to ${MAX_TEAM_SIZE}.`,
  });

/** How each transfer number reads (empty: its default), as the rules schema bounds it. */
const TRANSFER_NUMBERS: Record<RuleTransferField, WholeNumberText & { required: null }> = {
  transfersFree: {
    required: null,
    notWhole: "Give the free transfers a round as a whole number (empty: 1).",
    min: 0,
    max: 20,
    range: "The free transfers a round are 0 to 20.",
  },
  transfersBank: {
    required: null,
    notWhole: "Give the free transfers kept at most as a whole number (empty: 5).",
    min: 0,
    max: 50,
    range: "The free transfers kept are 0 to 50.",
  },
  transfersCost: {
    required: null,
    notWhole: "Give the points per extra transfer as a whole number (empty: 4).",
    min: 0,
    max: 1_000,
    range: "An extra transfer costs 0 to 1,000 points.",
  },
};

/**
 * The rules part of the create and rules forms, read as core's `RuleChanges`. The transfer
 * numbers are read only when "Limited transfers" is ticked (and so only once the other fields
 * read); unticked, transfers are unlimited.
 */
export const ruleFieldsSchema = z
  .object({
    teamSize: wholeNumber({
      required: "Give the team size.",
      notWhole: "Give the team size as a whole number of riders.",
      min: 1,
      max: MAX_TEAM_SIZE,
      range: `A team has 1 to ${MAX_TEAM_SIZE} riders.`,
    }),
    budget: wholeNumber({
      required: "Give the budget.",
      notWhole: "Give the budget in whole dollars, e.g. 1,500,000.",
      min: 1_000,
      max: 1_000_000_000,
      range: "The budget is between $1,000 and $1,000,000,000.",
    }),
    minWomen: groupMinimum("women"),
    maxWomen: groupMaximum("women"),
    minJuniors: groupMinimum("juniors"),
    maxJuniors: groupMaximum("juniors"),
    lockHours: wholeNumber({
      required: "Give the lock time in hours.",
      notWhole: "Give the lock time as a whole number of hours.",
      min: 0,
      max: 168,
      range: "Teams lock 0 to 168 hours (a week) before a round.",
    }),
    // Checkboxes: ticked posts CHECKED, unticked posts nothing, which turns the rule off (the
    // forms always show them, so a post without one means "off", not "unchanged").
    captain: z.string().optional().transform(isChecked),
    bench: z.string().optional().transform(isChecked),
    transfers: z.string().optional().transform(isChecked),
    transfersFree: z.string().optional(),
    transfersBank: z.string().optional(),
    transfersCost: z.string().optional(),
    wildcard: z.string().optional().transform(isChecked),
  })
  .transform((fields, ctx): RuleChanges => {
    const { transfers, transfersFree, transfersBank, transfersCost, ...changes } = fields;
    if (!transfers) return { ...changes, transfers: null };
    const read = (name: RuleTransferField, raw: string | undefined) =>
      readWhole(raw, TRANSFER_NUMBERS[name], ctx, name) ?? TRANSFER_DEFAULTS[name];
    return {
      ...changes,
      transfers: {
        free: read("transfersFree", transfersFree),
        bank: read("transfersBank", transfersBank),
        cost: read("transfersCost", transfersCost),
      },
    };
  });

/** Where a rule the rules schema refuses is shown: its field, or the whole form. */
const RULE_PATHS: Record<string, RuleField> = {
  teamSize: "teamSize",
  budget: "budget",
  "women.min": "minWomen",
  "women.max": "maxWomen",
  "juniors.min": "minJuniors",
  "juniors.max": "maxJuniors",
  lockHours: "lockHours",
  captain: "captain",
  bench: "bench",
  transfers: "transfers",
  "transfers.free": "transfersFree",
  "transfers.bank": "transfersBank",
  "transfers.cost": "transfersCost",
  wildcard: "wildcard",
};

/**
 * The rules `changes` make of `base`, checked by core's one rules schema; a refusal comes back
 * by field (a minimum above the team size under that minimum), anything else under `form`
 * (only when no field is wrong).
 */
export function checkRuleChanges(
  base: CompetitionRules,
  changes: RuleChanges,
): { ok: true; rules: CompetitionRules } | { ok: false; errors: Record<string, string> } {
  const parsed = competitionRulesSchema.safeParse(withRuleChanges(base, changes));
  if (parsed.success) return { ok: true, rules: parsed.data };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const key = RULE_PATHS[issue.path.join(".")] ?? "form";
    errors[key] ??= issue.message;
  }
  // "No team can meet these rules" follows from a field's problem: show that one alone.
  if (Object.keys(errors).length > 1) delete errors.form;
  return { ok: false, errors };
}

const slug = z
  .string({ error: "That competition no longer exists." })
  .trim()
  .min(1, "That competition no longer exists.")
  .max(80, "That competition no longer exists.");

const roundId = (message: string) =>
  z.coerce
    .number({ error: message })
    .int(message)
    .positive(message)
    .max(2 ** 31 - 1, message);

export const roundFormSchema = z.object({
  competition: slug,
  name: z
    .string({ error: "Give the round a name." })
    .trim()
    .min(1, { error: "Give the round a name.", abort: true })
    .min(3, "A round's name has 3 to 100 characters.")
    .max(100, "A round's name has 3 to 100 characters."),
  startsAt: z
    .string({ error: "Give the start date and time." })
    .trim()
    .min(1, { error: "Give the start date and time.", abort: true })
    .regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?$/, "Give the start date and time."),
  location: z
    .string()
    .trim()
    .max(100, "A location has at most 100 characters.")
    .optional()
    .transform((v) => v ?? ""),
  // The admin's zone, filled by the page; without JavaScript the page's zone (UTC at first).
  timeZone: z
    .string()
    .optional()
    .transform((z) => z || "UTC")
    .refine(isTimeZone, "Unknown time zone."),
});

export const copyFormSchema = z.object({
  competition: slug,
  to: roundId("Choose the round to copy racers into."),
  from: roundId("Choose the round to copy racers from."),
  /** "yes" once the admin has seen the preview. */
  confirm: z.string().optional(),
});

export const archiveFormSchema = z.object({
  competition: slug,
  confirm: z.string().optional(),
});

export const rulesFormSchema = z.object({ competition: slug });
