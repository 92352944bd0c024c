/** Team setup: what the page needs, and the one action that builds drafts and saves teams. */
import {
  addBlockMessage,
  addBlockReason,
  type Category,
  type CompetitionRules,
  categoryFromSlug,
  categoryToSlug,
  DEFAULT_TIME_ZONE,
  draftPrice,
  eventPhase,
  formatDateTime,
  formatPrice,
  type HeldRacer,
  isLocked,
  LOCK_HOURS,
  lockTime,
  teamLimit,
  teamWorth,
} from "@game/core";
import {
  type EventRow,
  getEvent,
  getRacersByIds,
  getTeam,
  getTransferStatus,
  listTeamRacers,
  type SaveTeamFailure,
  saveTeam,
  type TeamRacerView,
  type TeamView,
  teamSeasonStatus,
  withdrawnRacersOnTeam,
} from "@game/db";
import { type AppLoadContext, data, redirect } from "@remix-run/node";
import { getCurrentGame, rememberHeaders } from "~/features/game/game.server";
import { requireUser } from "~/utils/auth.server";
import { CANNOT_SAVE, cannotSave } from "~/utils/cannot-save.server";
import { parseId, readForm } from "~/utils/request.server";
import { readTimeZone } from "~/utils/time-zone.server";
import { SAVE_FAILED, SAVE_OK, type TeamActionResult, teamSetupHref } from "./team-form";
import { readCaptainParam, readDraftParam, readTeamForm, type TeamForm } from "./team-form.server";

export interface SetupEvent {
  id: number;
  name: string;
  status: EventRow["status"];
  logo: string;
  /** ISO 8601, UTC. */
  startsAt: string;
  lockAt: string;
  /** Hours before the start that teams lock (the competition's rules). */
  lockHours: number;
  /** The competition's rules, which the builder judges the team by as the save does. */
  rules: CompetitionRules;
}

/** Teams frozen before their lock time: an admin imported the results early. */
export const FROZEN_EARLY = "Teams are locked: the results of this event are in.";

/**
 * Why a team cannot be saved right now, in the player's words. `event` (with the clock) tells a
 * lock at the lock time from teams frozen early by a results import, so the message never names
 * a lock time still to come. The lock time is written in `timeZone` (the reader's).
 */
export function refusalText(
  reason: SaveTeamFailure,
  event?: Pick<EventRow, "startsAt"> & { lockHours?: number },
  now?: Date,
  timeZone: string = DEFAULT_TIME_ZONE,
): string {
  if (reason === "locked" && event && now && !isLocked(event, now)) return FROZEN_EARLY;
  const lockAt = event ? lockTime(event) : undefined;
  const hours = event?.lockHours ?? LOCK_HOURS;
  switch (reason) {
    case "not-found":
      return "Game not found.";
    case "not-open":
      return "This event is not open: teams can only be picked for the open event.";
    case "locked":
      return lockAt
        ? `Teams locked ${hours} hours before the event starts (${formatDateTime(lockAt, timeZone)}).`
        : `Teams locked ${hours} hours before the event starts.`;
    case "invalid":
      return "Your team does not meet the requirements.";
  }
}

function toSetupEvent(e: EventRow): SetupEvent {
  return {
    id: e.id,
    name: e.name,
    status: e.status,
    logo: e.logo,
    startsAt: e.startsAt.toISOString(),
    lockAt: lockTime(e).toISOString(),
    lockHours: e.lockHours,
    rules: e.rules,
  };
}

/**
 * Keeps the draft entries that can be shown: known racers of the event, once each, at most a
 * team's size (the competition's rules).
 */
function cleanDraft(
  ids: readonly number[],
  byId: ReadonlyMap<number, TeamRacerView>,
  teamSize: number,
): number[] {
  return [...new Set(ids)].filter((id) => byId.has(id)).slice(0, teamSize);
}

/**
 * The racers of a saved team as the money rules need them, by id: what was paid and today's
 * price. Both team builders count the bank from it as the save does (docs/decisions/0141).
 */
export function heldPrices(team: TeamView | null): Record<number, HeldRacer> {
  return Object.fromEntries(
    team?.racers.map((r) => [r.id, { paid: r.price, now: r.priceNow }]) ?? [],
  );
}

export async function loadTeamSetup(request: Request, context: AppLoadContext) {
  const user = await requireUser(request, context);
  const url = new URL(request.url);
  const asked = url.searchParams.get("game");
  // An explicit game that does not exist is an error, not a silent switch to another event.
  const askedId = asked ? parseId(asked) : null;
  const event = asked
    ? askedId !== null
      ? await getEvent(context.db, askedId)
      : undefined
    : await getCurrentGame(request, context);
  if (!event) {
    throw data({ message: "Game not found." }, { status: 404 });
  }
  const [pickable, team, withdrawn, transfers] = await Promise.all([
    listTeamRacers(context.db, event.id),
    getTeam(context.db, user.id, event.id),
    withdrawnRacersOnTeam(context.db, user.id, event.id),
    getTransferStatus(context.db, user.id, event.id),
  ]);
  // Withdrawn racers the team holds stay on it (and in the builder); nobody else can pick them.
  const held =
    withdrawn.length > 0
      ? await getRacersByIds(
          context.db,
          withdrawn.map((w) => w.id),
        )
      : [];
  const racers = [...pickable, ...held];
  const byId = new Map(racers.map((r) => [r.id, r]));
  const saved = team?.racers.map((r) => r.id) ?? [];
  const fromUrl = readDraftParam(url.searchParams);
  const draft = fromUrl ? cleanDraft(fromUrl, byId, teamLimit(event.rules)) : saved;
  // The event's phase (not only the clock): teams frozen early by a results import are final too.
  const phase = eventPhase(event, context.now());
  const category: Category = categoryFromSlug(url.searchParams.get("category") ?? "") ?? "Pro Men";
  const show = Number(url.searchParams.get("show"));
  const timeZone = readTimeZone(request);

  return data(
    {
      event: toSetupEvent(event),
      editable:
        phase === "open"
          ? { ok: true as const, reason: null }
          : {
              ok: false as const,
              reason: refusalText(
                phase === "upcoming" || phase === "archived" ? "not-open" : "locked",
                event,
                context.now(),
                timeZone,
              ),
            },
      racers,
      saved,
      hasTeam: team !== null,
      withdrawn: withdrawn.map((w) => `${w.firstName} ${w.lastName}`),
      // The saved racers' prices paid and today's, and below the team's budget: the builder
      // counts the bank as the save does (decisions 0101, 0141).
      held: heldPrices(team),
      // What changed since the last round of the series, and what to fix (decision 0102).
      season: await teamSeasonStatus(context.db, user.id, event, team),
      draft,
      // What the draft's changes cost (docs/decisions/0170); null where they are unlimited.
      transfers,
      // The draft's captain (docs/decisions/0168): the URL's while a draft is built there.
      captain: !event.rules.captain
        ? null
        : fromUrl
          ? readCaptainParam(url.searchParams, draft)
          : (team?.captainId ?? null),
      category,
      show: byId.has(show) ? show : null,
      budget: team?.budget ?? event.rules.budget,
      now: context.now().toISOString(),
      timeZone,
    },
    { headers: await rememberHeaders(event) },
  );
}

function answer(result: TeamActionResult, status = 200) {
  return data(result, { status });
}

const FAILURE_STATUS: Record<SaveTeamFailure, number> = {
  "not-found": 404,
  "not-open": 409,
  locked: 409,
  invalid: 422,
};

/**
 * The team form. `save` is validated by the server against the database (never trusting the
 * posted prices or categories); `add`/`remove` build a draft for players without JavaScript
 * and answer with a redirect to the page showing it.
 */
export async function teamSetupAction(request: Request, context: AppLoadContext) {
  const user = await requireUser(request, context);
  const form = readTeamForm(await readForm(request));
  if (!form.ok) {
    context.metrics?.teamSave("bad-form");
    return answer(
      { ok: false, message: SAVE_FAILED, reasons: [form.error], draft: [], captain: null },
      400,
    );
  }
  return form.form.intent === "save"
    ? saveFromForm(request, context, user.id, form.form)
    : editDraft(request, context, user.id, form.form);
}

/** `save`: the team checked and stored by `saveTeam`; the answer keeps the draft on a refusal. */
async function saveFromForm(
  request: Request,
  context: AppLoadContext,
  userId: number,
  form: Extract<TeamForm, { intent: "save" }>,
) {
  const { game, racers: draft, captain, wildcard } = form;
  let result: Awaited<ReturnType<typeof saveTeam>>;
  try {
    result = await saveTeam(context.db, {
      userId,
      eventId: game,
      racerIds: draft,
      captainId: captain,
      wildcard,
      now: context.now,
    });
  } catch (error) {
    // The database is out of disk (or memory, connections): the draft stays on the page.
    if (!cannotSave(error, `${request.method} ${new URL(request.url).pathname}`)) throw error;
    context.metrics?.teamSave("unavailable");
    // (Retry-After: server/security-headers.js gives every 503 a minute.)
    return answer({ ok: false, message: SAVE_FAILED, reasons: [CANNOT_SAVE], draft, captain }, 503);
  }
  context.metrics?.teamSave(result.ok ? null : result.reason);
  if (result.ok) {
    return answer({
      ok: true,
      message: SAVE_OK,
      reasons: [],
      draft: result.team.racers.map((r) => r.id),
      captain: result.team.captainId,
    });
  }
  const event = result.reason === "locked" ? await getEvent(context.db, game) : undefined;
  const reasons =
    result.reason === "invalid"
      ? result.issues.map((i) => i.message)
      : [refusalText(result.reason, event, context.now(), readTimeZone(request))];
  return answer(
    { ok: false, message: SAVE_FAILED, reasons, draft, captain },
    FAILURE_STATUS[result.reason],
  );
}

/**
 * `add`, `remove`, `captain`, `bench` without JavaScript: the server applies the same rules the
 * page shows to the posted draft and redirects to the page showing the new one.
 */
async function editDraft(
  request: Request,
  context: AppLoadContext,
  userId: number,
  form: Exclude<TeamForm, { intent: "save" }>,
) {
  const { game, racers: draft, captain } = form;
  const event = await getEvent(context.db, game);
  if (!event) {
    return answer(
      { ok: false, message: "Game not found.", reasons: [], draft: [], captain: null },
      404,
    );
  }
  const [racers, saved] = await Promise.all([
    listTeamRacers(context.db, event.id),
    getTeam(context.db, userId, event.id),
  ]);
  // A racer of the saved team costs their selling price, against the bank plus the saved team's
  // selling value: the money the page and the save count (decision 0141).
  const held = heldPrices(saved);
  const budget = teamWorth(saved?.budget ?? event.rules.budget, Object.values(held));
  const byId = new Map(racers.map((r) => [r.id, { ...r, price: draftPrice(r.price, held[r.id]) }]));
  const current = cleanDraft(draft, byId, teamLimit(event.rules));
  const rules = event.rules;
  let next = current;
  let nextCaptain = captain;
  if (form.intent === "captain") {
    // Naming the captain again takes the armband off (the button toggles).
    const racerId = form.racerId;
    nextCaptain =
      rules.captain && current.includes(racerId) && captain !== racerId ? racerId : null;
  } else if (form.intent === "bench") {
    // The starter moves to the bench slot; the bench rider takes their place (decision 0169).
    const racerId = form.racerId;
    if (rules.bench && current.length > rules.teamSize && current.includes(racerId)) {
      next = [...current.filter((id) => id !== racerId), racerId];
      if (nextCaptain === racerId) nextCaptain = null;
    }
  } else if (form.intent === "add") {
    const racer = byId.get(form.racerId);
    if (!racer) {
      const message = "This rider is not in this event.";
      return answer({ ok: false, message, reasons: [], draft: current, captain }, 422);
    }
    const team = current.map((id) => byId.get(id)!);
    const blocked = addBlockReason(team, racer, { gameId: event.id, budget, rules });
    if (blocked) {
      const message =
        blocked === "over-budget"
          ? `${addBlockMessage(blocked, rules)} (${formatPrice(racer.price)} needed).`
          : `${addBlockMessage(blocked, rules)}.`;
      return answer({ ok: false, message, reasons: [], draft: current, captain }, 422);
    }
    next = [...current, racer.id];
  } else {
    next = current.filter((id) => id !== form.racerId);
  }
  const tab =
    new URL(request.url).searchParams.get("category") ??
    (next.length > current.length ? categoryToSlug(byId.get(next.at(-1)!)!.category) : null);
  return redirect(
    teamSetupHref(event.id, { draft: next, category: tab, captain: nextCaptain }),
    303,
  );
}
