import { type Category, categoryToSlug } from "@game/core/categories";
import { formatPrice, racerName } from "@game/core/format";
import {
  BENCH_RULE,
  CAPTAIN_RULE,
  type CompetitionRules,
  DEFAULT_RULES,
  teamLimit,
} from "@game/core/rules";
import type { HeldRacer } from "@game/core/selling-price";
import type { TeamRacerView, TransferStatus } from "@game/db";
import { RacerTable, RequirementChecklist, TeamGrid } from "@game/widgets";
import { useFetcher } from "@remix-run/react";
import { type MouseEvent, useEffect, useRef, useState } from "react";
import { RacerDetailDialog } from "./racer-detail-dialog";
import { SaveOutcome } from "./save-outcome";
import { SaveTeamButton } from "./save-team-button";
import { TEAM_FIELDS, type TeamActionResult, teamSetupHref } from "./team-form";
import { CaptainMark, CaptainToggle } from "./team-marks";
import { TransferLine } from "./transfer-line";
import { useHydrated } from "./use-hydrated";
import { useTeamDraft } from "./use-team-draft";

export interface TeamBuilderProps {
  eventId: number;
  racers: TeamRacerView[];
  /** The draft to start from: the saved team, a draft from the URL, or the last posted one. */
  draft: number[];
  /** The draft's captain to start from (where the rules have captains), or null. */
  captain?: number | null;
  /** The team's transfer account, where the rules limit changes (decision 0170). */
  transfers?: TransferStatus | null;
  hasTeam: boolean;
  /** The saved team's budget (the competition's without one): its bank plus the prices paid. */
  budget: number;
  /** The competition's rules: what the checklist and the adds judge by. */
  rules?: CompetitionRules;
  category: Category;
  /** A rider whose details are open (from `?show=`). */
  show: number | null;
  /** Null when the team can be changed; otherwise why not. */
  lockedReason: string | null;
  /** The answer to a form posted without JavaScript. */
  actionResult?: TeamActionResult;
  /**
   * The racers of the saved team: what the player paid and today's price. A racer of the saved
   * team counts at their selling price, so the bank here is the one the server counts (decision
   * 0141).
   */
  held?: Record<number, HeldRacer>;
}

const FORM_ID = "team-form";

/**
 * The team builder. With JavaScript the draft lives in the page (adding, removing and the
 * checklist update instantly) and only Save posts. Without it, the same form posts every add
 * and remove, and the server answers with the new draft.
 */
export function TeamBuilder(props: TeamBuilderProps) {
  const { eventId, racers, budget, lockedReason } = props;
  const rules = props.rules ?? DEFAULT_RULES;
  const hydrated = useHydrated();
  // Keyless: an answer belongs to this visit of the page, not to the next one.
  const fetcher = useFetcher<TeamActionResult>();
  const editable = lockedReason === null;
  const {
    draft,
    captain,
    toggleCaptain,
    bench,
    toBench,
    transfers,
    wildcard,
    setWildcard,
    byId,
    team,
    requirements,
    allMet,
    worth,
    bank,
    priceOf,
    slotMeta,
    blockReason,
    announcement,
    ...edit
  } = useTeamDraft({
    eventId,
    racers,
    budget,
    initial: props.actionResult?.draft ?? props.draft,
    initialCaptain: props.actionResult ? props.actionResult.captain : props.captain,
    transfers: props.transfers,
    held: props.held,
    blocked: editable ? null : "Teams are locked",
    rules: props.rules,
  });
  const [category, setCategory] = useState<Category>(props.category);
  const [shown, setShown] = useState<number | null>(props.show);
  const [result, setResult] = useState<TeamActionResult | null>(props.actionResult ?? null);
  const teamHeading = useRef<HTMLHeadingElement>(null);
  const tableRef = useRef<HTMLElement>(null);
  const [focusAfter, setFocusAfter] = useState<string | null>(null);

  // A new answer from the server replaces the alert.
  useEffect(() => {
    if (fetcher.data) setResult(fetcher.data);
  }, [fetcher.data]);

  // Buttons change shape when a rider is added (enabled <-> disabled): keep the keyboard there.
  useEffect(() => {
    if (!focusAfter) return;
    const target = tableRef.current?.querySelector<HTMLElement>(
      `[aria-label="${CSS.escape(focusAfter)}"]`,
    );
    target?.focus();
    setFocusAfter(null);
  }, [focusAfter]);

  const saving = fetcher.state !== "idle";
  const categorySlug = categoryToSlug(category);

  const addLabel = (racer: TeamRacerView) =>
    `Add ${racerName(racer)} for ${formatPrice(priceOf(racer))}`;

  const add = (racer: TeamRacerView, event?: MouseEvent, fromTable = true) => {
    event?.preventDefault();
    if (!edit.add(racer)) return;
    setResult(null);
    if (fromTable) setFocusAfter(addLabel(racer));
  };
  const remove = (racer: { id: number }, event?: MouseEvent) => {
    event?.preventDefault();
    edit.remove(racer);
    setResult(null);
    teamHeading.current?.focus();
  };

  const shownRacer = shown !== null ? (byId.get(shown) ?? null) : null;
  const action = `/team-setup?game=${eventId}&category=${categorySlug}`;

  return (
    <>
      <fetcher.Form method="post" action={action} id={FORM_ID} className="team-builder">
        <input type="hidden" name={TEAM_FIELDS.game} value={eventId} />
        {draft.map((id) => (
          <input key={id} type="hidden" name={TEAM_FIELDS.racer} value={id} />
        ))}
        {captain !== null ? (
          <input type="hidden" name={TEAM_FIELDS.captain} value={captain} />
        ) : null}

        <section className="team-builder__team card" aria-labelledby="team-heading">
          <h2 id="team-heading" ref={teamHeading} tabIndex={-1}>
            Your team
          </h2>
          <p className="team-builder__bank">
            Bank{" "}
            <strong className={bank < 0 ? "negative" : undefined} data-testid="bank">
              {formatPrice(bank)}
            </strong>
          </p>
          <TeamGrid
            racers={team}
            budget={worth}
            slots={teamLimit(rules)}
            renderMeta={(racer) =>
              racer.id === bench ? `Bench · ${slotMeta(racer)}` : slotMeta(racer)
            }
            readOnly={!editable}
            removeFormName={editable ? TEAM_FIELDS.remove : undefined}
            onRemove={editable ? (racer, event) => remove(racer, event) : undefined}
            onRacerClick={hydrated ? (racer) => setShown(racer.id) : undefined}
            renderAside={
              !rules.captain && !rules.bench
                ? undefined
                : editable
                  ? (racer) => (
                      <SlotButtons
                        racer={racer}
                        rules={rules}
                        captain={captain}
                        bench={bench}
                        onCaptain={(r) => {
                          toggleCaptain(r);
                          setResult(null);
                        }}
                        onBench={(r) => {
                          toBench(r);
                          setResult(null);
                        }}
                      />
                    )
                  : (racer) => (captain === racer.id ? <CaptainMark /> : null)
            }
          />
          <RoleHints
            rules={rules}
            captain={captain === null ? null : byId.get(captain)!}
            bench={bench === null ? null : byId.get(bench)!}
          />
          <RequirementChecklist requirements={requirements} />
          {props.transfers && transfers ? (
            <TransferLine
              account={props.transfers}
              round={transfers}
              eventId={eventId}
              wildcard={wildcard}
              onWildcard={editable ? setWildcard : undefined}
            />
          ) : null}

          <div className="team-builder__result" role="alert">
            <SaveOutcome outcome={result} block="alert" />
          </div>

          {editable ? (
            <SaveTeamButton
              name={TEAM_FIELDS.intent}
              hasTeam={props.hasTeam}
              allMet={allMet}
              busy={saving}
              hintId="save-hint"
              buttonClass="button button--primary team-builder__save"
              hintClass="hint"
            />
          ) : null}
          <p className="visually-hidden" aria-live="polite">
            {announcement}
          </p>
        </section>

        <section
          className="team-builder__racers card"
          aria-labelledby="racers-heading"
          ref={tableRef}
        >
          <h2 id="racers-heading">Pick your riders</h2>
          <RacerTable
            racers={racers}
            category={category}
            onCategoryChange={(next, event) => {
              if (!hydrated) return;
              event.preventDefault();
              setCategory(next);
            }}
            categoryHref={(c) => teamSetupHref(eventId, { draft, category: categoryToSlug(c) })}
            racerHref={
              hydrated
                ? undefined
                : (r) => teamSetupHref(eventId, { draft, category: categorySlug, show: r.id })
            }
            onRacerNameClick={hydrated ? (r) => setShown(r.id) : undefined}
            // The price button is the price (spec: portrait, name, price button).
            hideColumns={["price"]}
            action={{
              header: "Add to team",
              label: (r) => formatPrice(priceOf(r as TeamRacerView)),
              ariaLabel: (r) => addLabel(r as TeamRacerView),
              disabledReason: (r) => blockReason(r as TeamRacerView),
              name: editable ? TEAM_FIELDS.add : undefined,
              onSelect: (r, event) => add(r as TeamRacerView, event),
            }}
          />
        </section>
      </fetcher.Form>

      <RacerDetailDialog
        racer={shownRacer}
        hydrated={hydrated}
        closeHref={teamSetupHref(eventId, { draft, category: categorySlug })}
        onClose={() => setShown(null)}
        actions={
          !shownRacer || !editable ? null : (
            <ShownRacerAction
              racer={shownRacer}
              onTeam={draft.includes(shownRacer.id)}
              block={blockReason(shownRacer)}
              price={priceOf(shownRacer)}
              onAdd={(event) => {
                add(shownRacer, event, false);
                setShown(null);
              }}
              onRemove={(event) => {
                remove(shownRacer, event);
                setShown(null);
              }}
            />
          )
        }
      />
    </>
  );
}

/**
 * A starter's buttons in the team grid, where the rules have them: captain (C) and bench swap.
 * Submit buttons: without JavaScript the server applies them.
 */
function SlotButtons(props: {
  racer: TeamRacerView;
  rules: CompetitionRules;
  captain: number | null;
  bench: number | null;
  onCaptain: (racer: TeamRacerView) => void;
  onBench: (racer: TeamRacerView) => void;
}) {
  const { racer, rules, captain, bench } = props;
  return (
    <>
      {rules.captain && racer.id !== bench ? (
        <CaptainToggle
          racer={racer}
          on={captain === racer.id}
          name={TEAM_FIELDS.makeCaptain}
          onToggle={(event) => {
            event.preventDefault();
            props.onCaptain(racer);
          }}
        />
      ) : null}
      {bench !== null && racer.id !== bench ? (
        <button
          type="submit"
          name={TEAM_FIELDS.toBench}
          value={racer.id}
          className="button button--ghost bench-toggle"
          onClick={(event) => {
            event.preventDefault();
            props.onBench(racer);
          }}
        >
          Bench <span className="gf-sr-only">{racerName(racer)}</span>
        </button>
      ) : null}
    </>
  );
}

/** What the captain and the bench are, or how to pick them, where the rules have them. */
function RoleHints(props: {
  rules: CompetitionRules;
  captain: TeamRacerView | null;
  bench: TeamRacerView | null;
}) {
  const { rules, captain, bench } = props;
  return (
    <>
      {rules.captain ? (
        <p className="hint team-builder__captain-hint">
          {captain === null
            ? `${CAPTAIN_RULE} Press C beside a rider to name them.`
            : `${racerName(captain)} is your captain: their points count double.`}
        </p>
      ) : null}
      {rules.bench ? (
        <p className="hint team-builder__bench-hint">
          {bench === null
            ? `${BENCH_RULE} The rider you pick after your first ${rules.teamSize} sits on it.`
            : `${racerName(bench)} is on your bench. Press Bench beside a starter to swap them.`}
        </p>
      ) : null}
    </>
  );
}

/** The open rider's action: remove them, add them at their price, or why they cannot be added. */
function ShownRacerAction(props: {
  racer: TeamRacerView;
  onTeam: boolean;
  block: string | null;
  price: number;
  onAdd: (event: MouseEvent) => void;
  onRemove: (event: MouseEvent) => void;
}) {
  const { racer, onTeam } = props;
  if (!onTeam && props.block) return <p className="hint">{props.block}</p>;
  // A submit button either way: without JavaScript it posts the remove or the add.
  return (
    <button
      type="submit"
      form={FORM_ID}
      name={onTeam ? TEAM_FIELDS.remove : TEAM_FIELDS.add}
      value={racer.id}
      className={onTeam ? "button button--ghost" : "button button--primary"}
      onClick={onTeam ? props.onRemove : props.onAdd}
    >
      {onTeam ? "Remove from team" : `Add to team for ${formatPrice(props.price)}`}
    </button>
  );
}
