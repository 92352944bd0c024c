/**
 * The competitions page's forms: create a competition, and per competition its rules (in words
 * and as a form), its rounds (add one, copy racers into one) and archiving. Each is a plain form
 * posting to `/admin/competitions` with its `intent`, so it works without JavaScript: the page
 * then shows the action's answer (`answer`), in the block it is about. Errors are shown by field
 * and take the focus; a confirmation (archive) or a preview (copy) asks before anything changes.
 */
import { DISCIPLINES } from "@game/core/rules";
import { Form, Link, useNavigation } from "@remix-run/react";
import { type ReactNode, type RefObject, useEffect, useRef } from "react";
import {
  DISCIPLINE_LABELS,
  disciplineAndSeason,
  STATE_LABELS,
} from "~/features/competitions/competition-text";
import { AdminTable, num } from "./admin-table";
import { AdminTime } from "./admin-time";
import {
  CHECKED,
  type CompetitionIntent,
  DEFAULT_RULE_VALUES,
  isChecked,
  RULE_CHECKBOX_FIELDS,
  RULE_TRANSFER_FIELDS,
  type RuleCheckboxField,
  type RuleNumberField,
  type RuleTransferField,
  TRANSFER_DEFAULTS,
} from "./competition-form";
import type { AdminCompetition, CompetitionAnswer } from "./competitions.server";

export const COMPETITIONS_PATH = "/admin/competitions";

/** The answer for one form: its intent, and its competition when it has one. */
export function answerFor(
  answer: CompetitionAnswer | undefined,
  intent: CompetitionIntent,
  competition?: string,
): CompetitionAnswer | undefined {
  if (!answer || answer.intent !== intent) return undefined;
  if (competition !== undefined && answer.competition !== competition) return undefined;
  return answer;
}

/** Whether this form is being posted (its intent and competition). */
function useBusy(intent: CompetitionIntent, competition?: string): boolean {
  const navigation = useNavigation();
  const f = navigation.formData;
  return (
    navigation.state === "submitting" &&
    f?.get("intent") === intent &&
    (competition === undefined || f.get("competition") === competition)
  );
}

/**
 * After an answer: the first field in error (or the form's message) takes the focus; a form
 * that worked is emptied for the next entry (`reset`).
 */
function useAnswerFocus(
  form: RefObject<HTMLFormElement | null>,
  answer: CompetitionAnswer | undefined,
  opts: { reset?: boolean } = {},
) {
  const { reset } = opts;
  useEffect(() => {
    if (!answer) return;
    if (!answer.ok) {
      form.current?.querySelector<HTMLElement>('[aria-invalid="true"], [data-form-error]')?.focus();
    } else if (reset && !answer.confirm) {
      form.current?.reset();
    }
  }, [answer, form, reset]);
}

function FieldError({ id, error }: { id: string; error?: string }) {
  return error ? (
    <p id={id} className="field-error">
      {error}
    </p>
  ) : null;
}

/** A labelled text input with its hint and error, tied together for screen readers. */
function TextField(props: {
  id: string;
  name: string;
  label: string;
  defaultValue?: string;
  error?: string;
  hint?: ReactNode;
  required?: boolean;
  maxLength?: number;
  numeric?: boolean;
  type?: "text" | "datetime-local";
}) {
  const { id, error, hint } = props;
  const describedBy =
    [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? "text"}
        defaultValue={props.defaultValue}
        required={props.required}
        maxLength={props.maxLength}
        inputMode={props.numeric ? "numeric" : undefined}
        autoComplete="off"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      />
      {hint ? (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      ) : null}
      <FieldError id={`${id}-error`} error={error} />
    </div>
  );
}

/** A message about the whole form, focusable so an error can take the focus. */
function FormError({ error }: { error?: string }) {
  return error ? (
    <p className="form-error" tabIndex={-1} data-form-error>
      {error}
    </p>
  ) : null;
}

/** The answer's message when it worked, in a polite live region. */
function Outcome({ answer }: { answer?: CompetitionAnswer }) {
  return (
    <div role="status" aria-live="polite">
      {answer?.ok && answer.message ? (
        <p className="admin-result admin-result--ok">{answer.message}</p>
      ) : null}
    </div>
  );
}

const RULE_LABELS: Record<RuleNumberField, { label: string; hint?: string }> = {
  teamSize: { label: "Team size (riders)" },
  budget: { label: "Budget ($)", hint: "Whole dollars, e.g. 1,500,000." },
  minWomen: { label: "Minimum women" },
  maxWomen: { label: "Maximum women", hint: "Empty: no maximum." },
  minJuniors: { label: "Minimum juniors" },
  maxJuniors: { label: "Maximum juniors", hint: "Empty: no maximum." },
  lockHours: { label: "Lock (hours before a round)" },
};

/** The rules that are on or off, by their checkbox's name. */
const RULE_CHECKBOX_LABELS: Record<RuleCheckboxField, { label: string; hint: string }> = {
  captain: {
    label: "Captain: a team's captain scores double points",
    hint: "Each team names one rider captain, whose points count double. Off in the usual game.",
  },
  bench: {
    label:
      "Bench: a team may add one rider on the bench who scores for a starter who does not start",
    hint: "One more rider, within the budget, scores only for a starter who does not start. Off in the usual game.",
  },
  transfers: {
    label: "Limited transfers",
    hint: "From round 2, each team has a few free changes a round; unused ones are kept, up to a limit, and each extra change costs points. Unticked: unlimited changes, as in the usual game.",
  },
  wildcard: {
    label: "Wildcard: once per competition, one round's transfers are all free",
    hint: "Needs limited transfers. Off in the usual game.",
  },
};

/** The numbers of limited transfers, shown under their box. */
const TRANSFER_LABELS: Record<RuleTransferField, string> = {
  transfersFree: "Free transfers a round",
  transfersBank: "Free transfers kept at most",
  transfersCost: "Points per extra transfer",
};

/**
 * The rule fields (seven numbers, the checkboxes, and under "Limited transfers" its three
 * numbers), in a group of their own.
 */
function RuleFields(props: {
  idPrefix: string;
  values: Record<string, string>;
  errors: Record<string, string>;
  legend: string;
}) {
  return (
    <fieldset className="admin-fieldset">
      <legend>{props.legend}</legend>
      <div className="admin-rule-fields">
        {(Object.keys(RULE_LABELS) as RuleNumberField[]).map((name) => (
          <TextField
            key={name}
            id={`${props.idPrefix}-${name}`}
            name={name}
            label={RULE_LABELS[name].label}
            hint={RULE_LABELS[name].hint}
            defaultValue={props.values[name] ?? ""}
            error={props.errors[name]}
            required={!name.startsWith("max")}
            numeric
          />
        ))}
      </div>
      {RULE_CHECKBOX_FIELDS.map((name) => (
        <div key={name}>
          <RuleCheckbox
            id={`${props.idPrefix}-${name}`}
            name={name}
            label={RULE_CHECKBOX_LABELS[name].label}
            hint={RULE_CHECKBOX_LABELS[name].hint}
            checked={isChecked(props.values[name])}
            error={props.errors[name]}
          />
          {name === "transfers" ? (
            <div className="admin-rule-fields">
              {RULE_TRANSFER_FIELDS.map((field) => (
                <TextField
                  key={field}
                  id={`${props.idPrefix}-${field}`}
                  name={field}
                  label={TRANSFER_LABELS[field]}
                  hint={`Used when Limited transfers is ticked. Empty: ${TRANSFER_DEFAULTS[field]}.`}
                  defaultValue={props.values[field] ?? ""}
                  error={props.errors[field]}
                  numeric
                />
              ))}
            </div>
          ) : null}
        </div>
      ))}
    </fieldset>
  );
}

/**
 * A rule that is on or off: a checkbox, ticked when the rules have it (posts nothing unticked),
 * with the rules schema's message when it refuses the rule (a wildcard without limited transfers).
 */
function RuleCheckbox(props: {
  id: string;
  name: RuleCheckboxField;
  label: string;
  hint: string;
  checked: boolean;
  error?: string;
}) {
  const { id, error } = props;
  return (
    <div>
      <p className="checkbox">
        <input
          type="checkbox"
          id={id}
          name={props.name}
          value={CHECKED}
          defaultChecked={props.checked}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
        />{" "}
        <label htmlFor={id}>{props.label}</label>
      </p>
      <p id={`${id}-hint`} className="field-hint">
        {props.hint}
      </p>
      <FieldError id={`${id}-error`} error={error} />
    </div>
  );
}

export function CreateCompetition({ answer }: { answer?: CompetitionAnswer }) {
  const busy = useBusy("create");
  const formRef = useRef<HTMLFormElement>(null);
  useAnswerFocus(formRef, answer, { reset: true });
  const errors = (!answer?.ok && answer?.errors) || {};
  const values = (!answer?.ok && answer?.values) || {
    discipline: "downhill",
    ...DEFAULT_RULE_VALUES,
  };
  return (
    <section className="panel" aria-labelledby="competition-create-title">
      <h2 id="competition-create-title">Create a competition</h2>
      <p className="muted">
        A series of rounds (or a one-off race) with rules of its own. The rules start as the usual
        game's; they can change until the first round locks.
      </p>
      <Form
        method="post"
        action={COMPETITIONS_PATH}
        ref={formRef}
        className="auth-form"
        noValidate
        aria-labelledby="competition-create-title"
      >
        <input type="hidden" name="intent" value="create" />
        <TextField
          id="competition-name"
          name="name"
          label="Name"
          hint="With its year, e.g. Pro Downhill Series 2028."
          defaultValue={values.name}
          error={errors.name}
          required
          maxLength={80}
        />
        <div className="field">
          <label htmlFor="competition-discipline">Discipline</label>
          <select
            id="competition-discipline"
            name="discipline"
            defaultValue={values.discipline || "downhill"}
            aria-invalid={errors.discipline ? true : undefined}
            aria-describedby={errors.discipline ? "competition-discipline-error" : undefined}
          >
            {DISCIPLINES.map((d) => (
              <option key={d} value={d}>
                {DISCIPLINE_LABELS[d]}
              </option>
            ))}
          </select>
          <FieldError id="competition-discipline-error" error={errors.discipline} />
        </div>
        <TextField
          id="competition-season"
          name="season"
          label="Year or season"
          hint="Optional, e.g. 2028."
          defaultValue={values.season}
          error={errors.season}
          maxLength={20}
        />
        <div className="field">
          <label htmlFor="competition-description">Description</label>
          <textarea
            id="competition-description"
            name="description"
            maxLength={1000}
            defaultValue={values.description}
            aria-invalid={errors.description ? true : undefined}
            aria-describedby={`competition-description-hint${errors.description ? " competition-description-error" : ""}`}
          />
          <p id="competition-description-hint" className="field-hint">
            Optional: a line or two for its public page.
          </p>
          <FieldError id="competition-description-error" error={errors.description} />
        </div>
        <RuleFields idPrefix="competition" values={values} errors={errors} legend="Rules" />
        <FormError error={errors.form} />
        <p>
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? "Creating..." : "Create competition"}
          </button>
        </p>
      </Form>
      <div role="status" aria-live="polite">
        {answer?.ok ? (
          <p className="admin-result admin-result--ok">
            {answer.message}{" "}
            {answer.competition ? (
              <a href={`#competition-${answer.competition}`}>Go to it</a>
            ) : null}
          </p>
        ) : null}
      </div>
    </section>
  );
}

/** The list of every competition, each name leading to its panel below. */
export function CompetitionTable({ competitions }: { competitions: AdminCompetition[] }) {
  if (competitions.length === 0) return <p>No competitions yet.</p>;
  return (
    <AdminTable
      label="Competition table"
      columns={["Name", "Slug", "Discipline", "Season", "State", num("Rounds")]}
      rows={competitions}
    >
      {(c) => (
        <tr key={c.slug}>
          <th scope="row">
            <a href={`#competition-${c.slug}`}>{c.name}</a>
          </th>
          <td className="admin-key">{c.slug}</td>
          <td>{DISCIPLINE_LABELS[c.discipline]}</td>
          <td>{c.season}</td>
          <td>
            <span className="admin-status" data-status={c.state}>
              {STATE_LABELS[c.state]}
            </span>
          </td>
          <td className="num">{c.rounds.length}</td>
        </tr>
      )}
    </AdminTable>
  );
}

/** Every round of every competition, for "Copy racers from". */
export interface RoundChoice {
  id: number;
  name: string;
  competition: string;
}

/** One competition: its rules, its rounds and what can be done with them. */
export function CompetitionPanel({
  competition: c,
  allRounds,
  answer,
  zone,
}: {
  competition: AdminCompetition;
  allRounds: { competition: string; rounds: RoundChoice[] }[];
  answer?: CompetitionAnswer;
  zone: string;
}) {
  const archived = c.archivedAt !== null;
  const titleId = `competition-${c.slug}-title`;
  return (
    <section
      className="panel admin-competition"
      id={`competition-${c.slug}`}
      aria-labelledby={titleId}
      tabIndex={-1}
    >
      <h2 id={titleId}>
        {c.name}{" "}
        <span className="admin-status" data-status={c.state}>
          {STATE_LABELS[c.state]}
        </span>
      </h2>
      <p className="muted">
        {disciplineAndSeason(c)}. Slug <code className="admin-key">{c.slug}</code>.{" "}
        <Link to={`/competitions/${c.slug}`}>Public page</Link>
      </p>
      {c.description ? <p>{c.description}</p> : null}

      <h3>Rules</h3>
      <ul className="admin-rules">
        {c.rulesText.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      {archived ? null : <RulesForm competition={c} answer={answerFor(answer, "rules", c.slug)} />}

      <h3>Rounds</h3>
      {c.rounds.length === 0 ? (
        <p>No rounds yet: add the first one below.</p>
      ) : (
        <AdminTable
          label={`Rounds of ${c.name}`}
          columns={[
            "Round",
            "Event",
            "Name",
            "Status",
            "Starts",
            "Teams lock",
            num("Racers"),
            "Actions",
          ]}
          rows={c.rounds}
        >
          {(r) => (
            <tr key={r.id}>
              <td className="num">{r.round ?? ""}</td>
              <td className="num">{r.id}</td>
              <th scope="row">{r.name}</th>
              <td>
                <span className="admin-status" data-status={r.status}>
                  {r.status}
                </span>
                {r.settled ? " settled" : ""}
              </td>
              <td>
                <AdminTime value={r.startsAt} />
              </td>
              <td>
                <AdminTime value={r.lockAt} />
              </td>
              <td className="num">{r.racers}</td>
              <td>
                <Link
                  to={`/admin/events#event-${r.id}`}
                  aria-label={`Schedule, open or close ${r.name}`}
                >
                  Schedule, open or close
                </Link>
              </td>
            </tr>
          )}
        </AdminTable>
      )}
      {archived ? (
        <p>
          Archived on <AdminTime value={c.archivedAt!} day />: it takes no new rounds.
        </p>
      ) : (
        <>
          <RoundForm competition={c} answer={answerFor(answer, "round", c.slug)} zone={zone} />
          {c.rounds.some((r) => !r.settled && r.status !== "archived") ? (
            <CopyForm
              competition={c}
              allRounds={allRounds}
              answer={answerFor(answer, "copy", c.slug)}
            />
          ) : null}
          <ArchiveBlock competition={c} answer={answerFor(answer, "archive", c.slug)} />
        </>
      )}
    </section>
  );
}

function RulesForm({
  competition: c,
  answer,
}: {
  competition: AdminCompetition;
  answer?: CompetitionAnswer;
}) {
  const busy = useBusy("rules", c.slug);
  const formRef = useRef<HTMLFormElement>(null);
  useAnswerFocus(formRef, answer);
  const errors = (!answer?.ok && answer?.errors) || {};
  const values = (!answer?.ok && answer?.values) || c.ruleValues;
  return (
    <details className="admin-details" open={answer ? true : undefined}>
      <summary>Change the rules</summary>
      <p className="muted">
        {c.rulesOpen
          ? "The rules can change until the first round locks."
          : "Teams have locked in this competition: its rules are fixed."}
      </p>
      <Form
        method="post"
        action={COMPETITIONS_PATH}
        ref={formRef}
        className="auth-form"
        noValidate
        // A new form once the rules change, showing them.
        key={JSON.stringify(c.ruleValues)}
        aria-label={`Rules of ${c.name}`}
      >
        <input type="hidden" name="intent" value="rules" />
        <input type="hidden" name="competition" value={c.slug} />
        <RuleFields
          idPrefix={`${c.slug}-rules`}
          values={values}
          errors={errors}
          legend={`Rules of ${c.name}`}
        />
        <FormError error={errors.form} />
        <p>
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? "Saving..." : "Save rules"}
          </button>
        </p>
      </Form>
      <Outcome answer={answer} />
    </details>
  );
}

function RoundForm({
  competition: c,
  answer,
  zone,
}: {
  competition: AdminCompetition;
  answer?: CompetitionAnswer;
  zone: string;
}) {
  const busy = useBusy("round", c.slug);
  const formRef = useRef<HTMLFormElement>(null);
  useAnswerFocus(formRef, answer, { reset: true });
  const errors = (!answer?.ok && answer?.errors) || {};
  const values = (!answer?.ok && answer?.values) || {};
  const id = `${c.slug}-round`;
  return (
    <Form
      method="post"
      action={COMPETITIONS_PATH}
      ref={formRef}
      className="auth-form admin-subform"
      noValidate
      aria-label={`Add a round to ${c.name}`}
    >
      <h4 id={`${id}-title`}>Add a round</h4>
      <p className="muted">
        It comes after the last round, closed and without racers: copy racers into it, then open it
        on the Events page. Times are in {zone === "UTC" ? "UTC" : `your time zone (${zone})`}.
      </p>
      <input type="hidden" name="intent" value="round" />
      <input type="hidden" name="competition" value={c.slug} />
      <input type="hidden" name="timeZone" value={zone} />
      <TextField
        id={`${id}-name`}
        name="name"
        label="Round name"
        defaultValue={values.name}
        error={errors.name}
        required
        maxLength={100}
      />
      <TextField
        id={`${id}-starts`}
        name="startsAt"
        label={`Starts (${zone})`}
        type="datetime-local"
        defaultValue={values.startsAt}
        error={errors.startsAt}
        required
      />
      <TextField
        id={`${id}-location`}
        name="location"
        label="Location"
        hint="Optional, e.g. Snowshoe, West Virginia, USA."
        defaultValue={values.location}
        error={errors.location}
        maxLength={100}
      />
      <FormError error={errors.form} />
      <p>
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? "Adding..." : "Add round"}
        </button>
      </p>
      <Outcome answer={answer} />
    </Form>
  );
}

function CopyForm({
  competition: c,
  allRounds,
  answer,
}: {
  competition: AdminCompetition;
  allRounds: { competition: string; rounds: RoundChoice[] }[];
  answer?: CompetitionAnswer;
}) {
  const busy = useBusy("copy", c.slug);
  const formRef = useRef<HTMLFormElement>(null);
  const confirmRef = useRef<HTMLHeadingElement>(null);
  useAnswerFocus(formRef, answer);
  const preview = answer?.confirm?.kind === "copy" ? answer.confirm : undefined;
  useEffect(() => {
    if (preview) confirmRef.current?.focus();
  }, [preview]);
  const errors = (!answer?.ok && answer?.errors) || {};
  const values = answer?.values ?? {};
  const targets = c.rounds.filter((r) => !r.settled && r.status !== "archived");
  const id = `${c.slug}-copy`;
  return (
    <div className="admin-subform">
      <Form
        method="post"
        action={COMPETITIONS_PATH}
        ref={formRef}
        className="auth-form"
        noValidate
        aria-label={`Copy racers into a round of ${c.name}`}
      >
        <h4 id={`${id}-title`}>Copy racers</h4>
        <p className="muted">
          Enters every starting racer of another round at their price there, as the same person.
          Racers already entered keep their entry. You see what it does before anything changes.
        </p>
        <input type="hidden" name="intent" value="copy" />
        <input type="hidden" name="competition" value={c.slug} />
        <div className="field">
          <label htmlFor={`${id}-to`}>Into round</label>
          <select
            id={`${id}-to`}
            name="to"
            defaultValue={values.to || String(targets.at(-1)?.id ?? "")}
            aria-invalid={errors.to ? true : undefined}
            aria-describedby={errors.to ? `${id}-to-error` : undefined}
          >
            {targets.map((r) => (
              <option key={r.id} value={r.id}>
                {r.name} (event {r.id})
              </option>
            ))}
          </select>
          <FieldError id={`${id}-to-error`} error={errors.to} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-from`}>Copy racers from</label>
          <select
            id={`${id}-from`}
            name="from"
            defaultValue={values.from ?? ""}
            aria-invalid={errors.from ? true : undefined}
            aria-describedby={errors.from ? `${id}-from-error` : undefined}
          >
            <option value="">Choose a round</option>
            {allRounds.map((group) => (
              <optgroup key={group.competition} label={group.competition}>
                {group.rounds.map((r) => (
                  <option key={r.id} value={r.id}>
                    {r.name} (event {r.id})
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
          <FieldError id={`${id}-from-error`} error={errors.from} />
        </div>
        <FormError error={errors.form} />
        <p>
          <button type="submit" className="button" disabled={busy && !preview}>
            {busy && !preview ? "Working..." : "Preview copy"}
          </button>
        </p>
      </Form>
      <div role="status" aria-live="polite">
        {answer?.ok && answer.message ? (
          <p className="admin-result admin-result--ok">{answer.message}</p>
        ) : null}
        {preview ? (
          <div className="admin-result admin-confirm">
            <h5 id={`${id}-confirm-title`} tabIndex={-1} ref={confirmRef}>
              Preview (nothing written yet)
            </h5>
            <p>
              Copying from {preview.from.name} into {preview.to.name} would enter {preview.copied}{" "}
              {preview.copied === 1 ? "racer" : "racers"}
              {preview.alreadyEntered > 0
                ? `; ${preview.alreadyEntered} already entered keep their entry`
                : ""}
              {preview.withdrawn > 0 ? `; ${preview.withdrawn} withdrawn are left out` : ""}.
            </p>
            <Form
              method="post"
              action={COMPETITIONS_PATH}
              className="admin-row-actions"
              aria-labelledby={`${id}-confirm-title`}
            >
              <input type="hidden" name="intent" value="copy" />
              <input type="hidden" name="competition" value={c.slug} />
              <input type="hidden" name="from" value={preview.from.id} />
              <input type="hidden" name="to" value={preview.to.id} />
              <input type="hidden" name="confirm" value="yes" />
              <button type="submit" className="button button--primary" disabled={busy}>
                {busy
                  ? "Copying..."
                  : `Yes, copy ${preview.copied} ${preview.copied === 1 ? "racer" : "racers"}`}
              </button>
              <Link
                to={`${COMPETITIONS_PATH}#competition-${c.slug}`}
                className="button button--ghost"
              >
                Cancel
              </Link>
            </Form>
          </div>
        ) : null}
      </div>
    </div>
  );
}

function ArchiveBlock({
  competition: c,
  answer,
}: {
  competition: AdminCompetition;
  answer?: CompetitionAnswer;
}) {
  const busy = useBusy("archive", c.slug);
  const confirmRef = useRef<HTMLHeadingElement>(null);
  const errorRef = useRef<HTMLFormElement>(null);
  const confirming = answer?.confirm?.kind === "archive";
  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);
  useAnswerFocus(errorRef, answer);
  const error = !answer?.ok ? answer?.errors?.form : undefined;
  const id = `${c.slug}-archive`;
  return (
    <div className="admin-subform">
      <h4 id={`${id}-title`}>Archive</h4>
      {confirming ? (
        <div className="admin-confirm">
          <h5 id={`${id}-confirm-title`} tabIndex={-1} ref={confirmRef}>
            Archive {c.name}?
          </h5>
          <p>
            It leaves the home page and the calendar, and its rounds are archived. Its teams,
            results and rankings stay. The dashboard cannot undo this.
          </p>
          <Form
            method="post"
            action={COMPETITIONS_PATH}
            className="admin-row-actions"
            aria-labelledby={`${id}-confirm-title`}
          >
            <input type="hidden" name="intent" value="archive" />
            <input type="hidden" name="competition" value={c.slug} />
            <input type="hidden" name="confirm" value="yes" />
            <button type="submit" className="button button--primary" disabled={busy}>
              {busy ? "Archiving..." : `Yes, archive ${c.name}`}
            </button>
            <Link
              to={`${COMPETITIONS_PATH}#competition-${c.slug}`}
              className="button button--ghost"
            >
              Cancel
            </Link>
          </Form>
        </div>
      ) : (
        <Form
          method="post"
          action={COMPETITIONS_PATH}
          className="admin-row-actions"
          ref={errorRef}
          aria-label={`Archive ${c.name}`}
        >
          <p className="muted">
            When it is over: its open rounds must be closed first. You are asked to confirm.
          </p>
          <input type="hidden" name="intent" value="archive" />
          <input type="hidden" name="competition" value={c.slug} />
          <button type="submit" className="button button--ghost" disabled={busy}>
            {busy ? "Working..." : `Archive ${c.name}...`}
          </button>
          <FormError error={error} />
        </Form>
      )}
      <Outcome answer={answer} />
    </div>
  );
}
