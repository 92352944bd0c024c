import { type Category, categoryToSlug } from "@game/core/categories";
import { formatPrice } from "@game/core/format";
import { type CompetitionRules, DEFAULT_RULES, teamLimit } from "@game/core/rules";
import type { HeldRacer } from "@game/core/selling-price";
import type { TeamRacerView, TransferStatus } from "@game/db";
import { RacerTable, RequirementChecklist, TeamGrid } from "@game/widgets";
import { useFetcher } from "@remix-run/react";
import { type MouseEvent, type RefObject, useEffect, useRef, useState } from "react";
import { deferredPart, onPage, usePart } from "~/utils/deferred-part";
import { addRiderAction, addRiderLabel } from "./add-rider-action";
import { SaveOutcome } from "./save-outcome";
import { SaveTeamButton } from "./save-team-button";
import { TEAM_FIELDS, type TeamActionResult, teamSetupHref } from "./team-form";
import { useHydrated } from "./use-hydrated";
import { type TeamDraft, useTeamDraft } from "./use-team-draft";

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

/** A rider's details, opened by a click or by `?show=` (docs/decisions/0178). */
const racerDialog = deferredPart(
  () => import("./racer-detail-dialog").then((m) => m.RacerDetailDialog),
  (url) => url.searchParams.has("show"),
);

/**
 * The captain and bench controls, and the line on transfers: only some competitions have them
 * (their rules say), so the page's own code leaves them out. A page whose HTML shows them has them
 * before it hydrates (docs/decisions/0180).
 */
const rolesPart = deferredPart(
  () => import("./team-roles"),
  () => onPage("team-roles"),
);
const transfersPart = deferredPart(
  () => import("./transfer-line").then((m) => m.TransferLine),
  () => onPage("transfer-line"),
);

/**
 * The team builder. With JavaScript the draft lives in the page (adding, removing and the
 * checklist update instantly) and only Save posts. Without it, the same form posts every add
 * and remove, and the server answers with the new draft.
 */
export function TeamBuilder(props: TeamBuilderProps) {
  const { eventId, racers, budget, lockedReason } = props;
  const hydrated = useHydrated();
  // Keyless: an answer belongs to this visit of the page, not to the next one.
  const fetcher = useFetcher<TeamActionResult>();
  const editable = lockedReason === null;
  const d = useTeamDraft({
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
  const RacerDetailDialog = usePart(racerDialog, shown !== null);
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

  const categorySlug = categoryToSlug(category);
  const add = (racer: TeamRacerView, event?: MouseEvent, fromTable = true) => {
    event?.preventDefault();
    if (!d.add(racer)) return;
    setResult(null);
    if (fromTable) setFocusAfter(addRiderLabel(d, racer));
  };
  const remove = (racer: { id: number }, event?: MouseEvent) => {
    event?.preventDefault();
    d.remove(racer);
    setResult(null);
    teamHeading.current?.focus();
  };

  const shownRacer = shown !== null ? (d.byId.get(shown) ?? null) : null;
  const action = `/team-setup?game=${eventId}&category=${categorySlug}`;

  return (
    <>
      <fetcher.Form method="post" action={action} id={FORM_ID} className="team-builder">
        <input type="hidden" name={TEAM_FIELDS.game} value={eventId} />
        {d.draft.map((id) => (
          <input key={id} type="hidden" name={TEAM_FIELDS.racer} value={id} />
        ))}
        {d.captain !== null ? (
          <input type="hidden" name={TEAM_FIELDS.captain} value={d.captain} />
        ) : null}
        <TeamSection
          d={d}
          rules={props.rules ?? DEFAULT_RULES}
          eventId={eventId}
          editable={editable}
          hydrated={hydrated}
          hasTeam={props.hasTeam}
          account={props.transfers ?? null}
          result={result}
          saving={fetcher.state !== "idle"}
          headingRef={teamHeading}
          onRemove={remove}
          onShow={setShown}
          onChange={() => setResult(null)}
        />
        <PickSection
          d={d}
          racers={racers}
          eventId={eventId}
          editable={editable}
          hydrated={hydrated}
          category={category}
          onCategory={setCategory}
          onShow={setShown}
          onAdd={add}
          sectionRef={tableRef}
        />
      </fetcher.Form>

      {RacerDetailDialog ? (
        <RacerDetailDialog
          racer={shownRacer}
          hydrated={hydrated}
          closeHref={teamSetupHref(eventId, { draft: d.draft, category: categorySlug })}
          onClose={() => setShown(null)}
          actions={
            !shownRacer || !editable ? null : (
              <ShownRacerAction
                racer={shownRacer}
                onTeam={d.draft.includes(shownRacer.id)}
                block={d.blockReason(shownRacer)}
                price={d.priceOf(shownRacer)}
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
      ) : null}
    </>
  );
}

/** The player's side: bank, grid, captain and bench, checklist, transfers, the answer, Save. */
function TeamSection(props: {
  d: TeamDraft;
  rules: CompetitionRules;
  eventId: number;
  editable: boolean;
  hydrated: boolean;
  hasTeam: boolean;
  /** The team's transfer account, where the rules limit changes. */
  account: TransferStatus | null;
  result: TeamActionResult | null;
  saving: boolean;
  headingRef: RefObject<HTMLHeadingElement>;
  onRemove: (racer: { id: number }, event?: MouseEvent) => void;
  onShow: (racerId: number) => void;
  /** A change the server has not answered yet: the last answer no longer holds. */
  onChange: () => void;
}) {
  const { d, rules, editable } = props;
  const { captain, bench } = d;
  const hasRoles = rules.captain || rules.bench;
  const Roles = usePart(rolesPart, hasRoles, false);
  const hasTransfers = Boolean(props.account && d.transfers);
  const TransferLine = usePart(transfersPart, hasTransfers, false);
  // The starters' marks and buttons, where the rules have them and their code is here.
  const aside = !(hasRoles && Roles)
    ? undefined
    : !editable
      ? (racer: TeamRacerView) => (captain === racer.id ? <Roles.CaptainMark /> : null)
      : (racer: TeamRacerView) => (
          <Roles.SlotButtons
            racer={racer}
            rules={rules}
            captain={captain}
            bench={bench}
            fields={TEAM_FIELDS}
            onCaptain={(r) => {
              d.toggleCaptain(r);
              props.onChange();
            }}
            onBench={(r) => {
              d.toBench(r);
              props.onChange();
            }}
          />
        );
  return (
    <section className="team-builder__team card" aria-labelledby="team-heading">
      <h2 id="team-heading" ref={props.headingRef} tabIndex={-1}>
        Your team
      </h2>
      <p className="team-builder__bank">
        Bank{" "}
        <strong className={d.bank < 0 ? "negative" : undefined} data-testid="bank">
          {formatPrice(d.bank)}
        </strong>
      </p>
      <TeamGrid
        racers={d.team}
        budget={d.worth}
        slots={teamLimit(rules)}
        renderMeta={(racer) =>
          racer.id === bench ? `Bench · ${d.slotMeta(racer)}` : d.slotMeta(racer)
        }
        readOnly={!editable}
        removeFormName={editable ? TEAM_FIELDS.remove : undefined}
        onRemove={editable ? (racer, event) => props.onRemove(racer, event) : undefined}
        onRacerClick={props.hydrated ? (racer) => props.onShow(racer.id) : undefined}
        renderAside={aside}
      />
      {hasRoles ? (
        <div className="team-builder__part" data-part="team-roles">
          {Roles ? (
            <Roles.RoleHints
              rules={rules}
              captain={captain === null ? null : d.byId.get(captain)!}
              bench={bench === null ? null : d.byId.get(bench)!}
            />
          ) : null}
        </div>
      ) : null}
      <RequirementChecklist requirements={d.requirements} />
      {props.account && d.transfers ? (
        <div className="team-builder__part" data-part="transfer-line">
          {TransferLine ? (
            <TransferLine
              account={props.account}
              round={d.transfers}
              eventId={props.eventId}
              wildcard={d.wildcard}
              onWildcard={editable ? d.setWildcard : undefined}
            />
          ) : null}
        </div>
      ) : null}

      <div className="team-builder__result" role="alert">
        <SaveOutcome outcome={props.result} block="alert" />
      </div>

      {editable ? (
        <SaveTeamButton
          name={TEAM_FIELDS.intent}
          hasTeam={props.hasTeam}
          allMet={d.allMet}
          busy={props.saving}
          hintId="save-hint"
          buttonClass="button button--primary team-builder__save"
          hintClass="hint"
        />
      ) : null}
      <p className="visually-hidden" aria-live="polite">
        {d.announcement}
      </p>
    </section>
  );
}

/** The racers to pick from, by category; each row's button adds the rider at their price. */
function PickSection(props: {
  d: TeamDraft;
  racers: TeamRacerView[];
  eventId: number;
  editable: boolean;
  hydrated: boolean;
  category: Category;
  onCategory: (category: Category) => void;
  onShow: (racerId: number) => void;
  onAdd: (racer: TeamRacerView, event?: MouseEvent) => void;
  sectionRef: RefObject<HTMLElement>;
}) {
  const { d, eventId, hydrated } = props;
  const draft = d.draft;
  const categorySlug = categoryToSlug(props.category);
  return (
    <section
      className="team-builder__racers card"
      aria-labelledby="racers-heading"
      ref={props.sectionRef}
    >
      <h2 id="racers-heading">Pick your riders</h2>
      <RacerTable
        racers={props.racers}
        category={props.category}
        onCategoryChange={(next, event) => {
          if (!hydrated) return;
          event.preventDefault();
          props.onCategory(next);
        }}
        categoryHref={(c) => teamSetupHref(eventId, { draft, category: categoryToSlug(c) })}
        racerHref={
          hydrated
            ? undefined
            : (r) => teamSetupHref(eventId, { draft, category: categorySlug, show: r.id })
        }
        onRacerNameClick={hydrated ? (r) => props.onShow(r.id) : undefined}
        // The price button is the price (spec: portrait, name, price button).
        hideColumns={["price"]}
        action={addRiderAction(d, props.onAdd, props.editable ? TEAM_FIELDS.add : undefined)}
      />
    </section>
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
