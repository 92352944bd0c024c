/**
 * The competitions page of the dashboard (`/admin/competitions`): what it lists, and its one
 * action, which creates a competition, changes its rules, archives it (after a confirmation),
 * adds a round and copies racers into a round (after a preview). Every write is the service the
 * CLI's `game-admin competitions` and `events create` use; their refusals come back as the
 * form's errors, word for word.
 */
import {
  type CompetitionState,
  competitionInputSchema,
  DEFAULT_RULES,
  type Discipline,
  describeRules,
  type RuleChanges,
} from "@game/core";
import {
  AdminActionError,
  archiveCompetition,
  type CompetitionView,
  changeCompetitionRules,
  copyRacers,
  createCompetition,
  createRound,
  getCompetition,
  listCompetitions,
  webActor,
} from "@game/db";
import type { AppLoadContext } from "@remix-run/node";
import type { z } from "zod";
import { fieldErrors } from "~/utils/field-errors";
import {
  archiveFormSchema,
  COMPETITION_INTENTS,
  type CompetitionIntent,
  checkRuleChanges,
  copyFormSchema,
  RULE_FIELDS,
  type RuleField,
  roundFormSchema,
  ruleFieldsSchema,
  ruleFieldValues,
  rulesFormSchema,
} from "./competition-form";
import { formatInZone, fromLocalInput } from "./time";

export interface AdminRound {
  id: number;
  round: number | null;
  name: string;
  location: string;
  status: "open" | "closed" | "archived";
  startsAt: string;
  lockAt: string;
  settled: boolean;
  racers: number;
}

export interface AdminCompetition {
  slug: string;
  name: string;
  discipline: Discipline;
  season: string;
  description: string;
  state: CompetitionState;
  archivedAt: string | null;
  /** Whether the rules can still change (before the first lock). */
  rulesOpen: boolean;
  /** The rules in words, one line each (core's `describeRules`). */
  rulesText: string[];
  /** The rules as the rules form shows them. */
  ruleValues: Record<RuleField, string>;
  rounds: AdminRound[];
}

function toAdminCompetition(c: CompetitionView): AdminCompetition {
  return {
    slug: c.slug,
    name: c.name,
    discipline: c.discipline,
    season: c.season,
    description: c.description,
    state: c.state,
    archivedAt: c.archivedAt?.toISOString() ?? null,
    rulesOpen: c.rulesOpen,
    rulesText: describeRules(c.rules),
    ruleValues: ruleFieldValues(c.rules),
    rounds: c.rounds.map((r) => ({
      id: r.id,
      round: r.round,
      name: r.name,
      location: r.location,
      status: r.status,
      startsAt: r.startsAt.toISOString(),
      lockAt: r.lockAt.toISOString(),
      settled: r.settledAt !== null,
      racers: r.racers,
    })),
  };
}

/** Every competition (live, upcoming, finished, then archived), with its rounds and rules. */
export async function loadAdminCompetitions(context: AppLoadContext) {
  const list = await listCompetitions(context.db, context.now());
  return { competitions: list.map(toAdminCompetition) };
}

/** What the copy preview shows, and its confirmation posts back. */
export interface CopyPreview {
  kind: "copy";
  from: { id: number; name: string };
  to: { id: number; name: string };
  copied: number;
  alreadyEntered: number;
  withdrawn: number;
}

/**
 * The action's answer. `competition` names the competition it is about (its panel shows it);
 * `errors` are by field, `form` for the whole form; `values` are what was typed, shown again;
 * `confirm` asks the admin to confirm an archive or a copy it previews.
 */
export interface CompetitionAnswer {
  intent: CompetitionIntent | null;
  competition: string | null;
  ok: boolean;
  message?: string;
  errors?: Record<string, string>;
  values?: Record<string, string>;
  confirm?: { kind: "archive" } | CopyPreview;
}

type Answer = { result: CompetitionAnswer; status: number };

/** The form's text fields (files and repeated values ignored), each cut to a sane length. */
function textFields(form: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of form.entries()) {
    if (typeof v === "string" && !(k in out)) out[k] = v.slice(0, 2000);
  }
  return out;
}

function pick(raw: Record<string, string>, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.map((n) => [n, raw[n] ?? ""]));
}

const errorsOf = (error: z.ZodError | undefined) => (error ? fieldErrors(error) : {});

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

interface IntentContext {
  /** The form's text fields. */
  raw: Record<string, string>;
  db: AppLoadContext["db"];
  actor: ReturnType<typeof webActor>;
  now: Date;
  /** An answer for this intent and competition. */
  answer: (status: number, result: Omit<CompetitionAnswer, "intent" | "competition">) => Answer;
  /** A refusal by the db layer, shown on `field` (404 when the competition is gone). */
  refused: (error: AdminActionError, field: string, values?: Record<string, string>) => Answer;
}

const INTENTS: Record<CompetitionIntent, (c: IntentContext) => Promise<Answer>> = {
  create: createIntent,
  rules: rulesIntent,
  archive: archiveIntent,
  round: roundIntent,
  copy: copyIntent,
};

export async function competitionsAction(
  form: FormData,
  context: AppLoadContext,
  admin: { id: number; email: string },
): Promise<Answer> {
  const raw = textFields(form);
  const intent = (COMPETITION_INTENTS as readonly string[]).includes(raw.intent ?? "")
    ? (raw.intent as CompetitionIntent)
    : null;
  const competition = raw.competition?.trim() || null;
  const answer = (status: number, result: Omit<CompetitionAnswer, "intent" | "competition">) => ({
    result: { intent, competition, ...result },
    status,
  });
  const refused = (error: AdminActionError, field: string, values?: Record<string, string>) =>
    answer(error.code === "not-found" ? 404 : 400, {
      ok: false,
      errors: { [field]: error.message },
      ...(values ? { values } : {}),
    });
  if (!intent) return answer(400, { ok: false, errors: { form: "Unknown action." } });
  try {
    return await INTENTS[intent]({
      raw,
      db: context.db,
      actor: webActor(admin),
      now: context.now(),
      answer,
      refused,
    });
  } catch (error) {
    // A competition removed between the page and the post (or a bad slug typed by hand).
    if (error instanceof AdminActionError) return refused(error, "form");
    throw error;
  }
}

/** A new competition with its rules, named and slugged. */
async function createIntent(c: IntentContext): Promise<Answer> {
  const { raw, db, actor, now, answer, refused } = c;
  const values = pick(raw, ["name", "discipline", "season", "description", ...RULE_FIELDS]);
  const input = competitionInputSchema.safeParse(values);
  const rules = ruleFieldsSchema.safeParse(raw);
  const errors = { ...errorsOf(input.error), ...errorsOf(rules.error) };
  if (rules.success) {
    const checked = checkRuleChanges(DEFAULT_RULES, rules.data);
    if (!checked.ok) Object.assign(errors, { ...checked.errors, ...errors });
  }
  if (!input.success || !rules.success || Object.keys(errors).length > 0) {
    return answer(400, { ok: false, errors, values });
  }
  try {
    const created = await createCompetition(
      db,
      { ...input.data, rules: rules.data satisfies RuleChanges },
      actor,
      now,
    );
    return {
      result: {
        intent: "create",
        competition: created.slug,
        ok: true,
        message: `Created ${created.name} (${created.slug}). Add its first round below.`,
      },
      status: 200,
    };
  } catch (error) {
    if (!(error instanceof AdminActionError)) throw error;
    const field = /^A competition('s)? name/.test(error.message) ? "name" : "form";
    return refused(error, field, values);
  }
}

/** The competition's rules changed, as far as its state allows (checkRuleChanges). */
async function rulesIntent(c: IntentContext): Promise<Answer> {
  const { raw, db, actor, now, answer, refused } = c;
  const values = pick(raw, RULE_FIELDS);
  const which = rulesFormSchema.safeParse(raw);
  const rules = ruleFieldsSchema.safeParse(raw);
  if (!which.success || !rules.success) {
    const errors = { ...formErrors(which.error), ...errorsOf(rules.error) };
    return answer(400, { ok: false, errors, values });
  }
  const current = await getCompetition(db, which.data.competition, now);
  if (!current) {
    return answer(404, {
      ok: false,
      errors: { form: "That competition no longer exists." },
    });
  }
  const checked = checkRuleChanges(current.rules, rules.data);
  if (!checked.ok) return answer(400, { ok: false, errors: checked.errors, values });
  try {
    const r = await changeCompetitionRules(db, current.slug, rules.data, actor, now);
    return answer(200, {
      ok: true,
      message: r.changed
        ? `Saved the rules of ${r.competition.name}.`
        : `No change to the rules of ${r.competition.name}.`,
    });
  } catch (error) {
    if (!(error instanceof AdminActionError)) throw error;
    const field = /^The budget of /.test(error.message) ? "budget" : "form";
    return refused(error, field, values);
  }
}

/** The competition archived, after a confirmation. */
async function archiveIntent(c: IntentContext): Promise<Answer> {
  const { raw, db, actor, now, answer, refused } = c;
  const parsed = archiveFormSchema.safeParse(raw);
  if (!parsed.success) return answer(400, { ok: false, errors: formErrors(parsed.error) });
  const current = await getCompetition(db, parsed.data.competition, now);
  if (!current) {
    return answer(404, { ok: false, errors: { form: "That competition no longer exists." } });
  }
  if (parsed.data.confirm !== "yes" && !current.archivedAt) {
    return answer(200, { ok: true, confirm: { kind: "archive" } });
  }
  try {
    const r = await archiveCompetition(db, current.slug, actor, now);
    return answer(200, {
      ok: true,
      message: r.changed
        ? `${r.competition.name} is archived: it has left the calendar, and its rounds are archived with their teams and results.`
        : `${r.competition.name} already was archived.`,
    });
  } catch (error) {
    if (!(error instanceof AdminActionError)) throw error;
    return refused(error, "form");
  }
}

/** A new round of the competition, at a start time in the admin's time zone. */
async function roundIntent(c: IntentContext): Promise<Answer> {
  const { raw, db, actor, now, answer, refused } = c;
  const values = pick(raw, ["name", "startsAt", "location"]);
  const parsed = roundFormSchema.safeParse(raw);
  if (!parsed.success) {
    return answer(400, { ok: false, errors: formErrors(parsed.error), values });
  }
  const { name, startsAt, location, timeZone } = parsed.data;
  const at = fromLocalInput(startsAt, timeZone);
  if (!at) {
    const errors = { startsAt: "That date and time does not exist." };
    return answer(400, { ok: false, errors, values });
  }
  if (at <= now) {
    const errors = { startsAt: "That time has passed: give a start time in the future." };
    return answer(400, { ok: false, errors, values });
  }
  try {
    const r = await createRound(
      db,
      { competition: parsed.data.competition, name, startsAt: at, location },
      actor,
      { now },
    );
    return answer(200, {
      ok: true,
      message: `Added ${r.name} (event ${r.id}, round ${r.round}), starting ${formatInZone(at, timeZone)}. Copy racers into it, then open it on the Events page.`,
    });
  } catch (error) {
    if (!(error instanceof AdminActionError)) throw error;
    const field = /start time/i.test(error.message)
      ? "startsAt"
      : /round('s)? name/i.test(error.message)
        ? "name"
        : "form";
    return refused(error, field, values);
  }
}

/** Racers entered from one round into another: a preview, then the copy once confirmed. */
async function copyIntent(c: IntentContext): Promise<Answer> {
  const { raw, db, actor, now, answer, refused } = c;
  const values = pick(raw, ["from", "to"]);
  const parsed = copyFormSchema.safeParse(raw);
  if (!parsed.success) return answer(400, { ok: false, errors: formErrors(parsed.error), values });
  const { from, to } = parsed.data;
  const dryRun = parsed.data.confirm !== "yes";
  try {
    const s = await copyRacers(db, from, to, { actor, dryRun, now });
    if (dryRun) {
      return answer(200, {
        ok: true,
        values,
        confirm: {
          kind: "copy",
          from: s.from,
          to: s.to,
          copied: s.copied,
          alreadyEntered: s.alreadyEntered,
          withdrawn: s.withdrawn,
        },
      });
    }
    const extra = [
      s.alreadyEntered > 0
        ? `${plural(s.alreadyEntered, "racer")} already entered kept their entry`
        : "",
      s.withdrawn > 0 ? `${plural(s.withdrawn, "withdrawn racer")} left out` : "",
    ].filter(Boolean);
    return answer(200, {
      ok: true,
      message: `Copied ${plural(s.copied, "racer")} from ${s.from.name} into ${s.to.name}${extra.length > 0 ? ` (${extra.join("; ")})` : ""}.`,
    });
  } catch (error) {
    if (!(error instanceof AdminActionError)) throw error;
    return refused(error, /itself/.test(error.message) ? "from" : "form", values);
  }
}

/**
 * A form's errors by field, where a hidden field's (the competition's slug, the admin's zone)
 * is the whole form's: the admin cannot see or fix it, only reload the page.
 */
function formErrors(error: z.ZodError | undefined): Record<string, string> {
  const { competition, timeZone, ...rest } = errorsOf(error);
  const hidden = competition ?? timeZone;
  return hidden && !rest.form ? { ...rest, form: hidden } : rest;
}
