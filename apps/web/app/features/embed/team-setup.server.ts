/**
 * `/embed/team-setup`: the team builder inside a partner's iframe. Same racers, same rules and
 * the same save service as `/team-setup`; only the credential differs (an in-memory embed
 * session instead of the cookie, which third-party frames do not get).
 */
import { eventPhase, lockTime } from "@game/core";
import {
  deleteEmbedSession,
  type EventRow,
  exchangeEmbedHandoff,
  getEmbedSession,
  getEvent,
  getPartnerByKey,
  getTeam,
  listEvents,
  listTeamRacers,
  type PartnerRow,
  recordPartnerStat,
  type SaveTeamFailure,
  saveTeam,
} from "@game/db";
import { type AppLoadContext, data } from "@remix-run/node";
import { heldPrices, refusalText } from "~/features/team/setup.server";
import { SAVE_FAILED, SAVE_OK } from "~/features/team/team-form";
import { CANNOT_SAVE, cannotSave } from "~/utils/cannot-save.server";
import { statLost } from "~/utils/partner-stats.server";
import { readForm } from "~/utils/request.server";
import { readTimeZone } from "~/utils/time-zone.server";
import { frameAncestors, parentOrigin } from "./frame.server";
import { type EmbedActionResult, readEmbedAction } from "./team-setup-form";

const THEMES = ["light", "dark", "auto"] as const;
type Theme = (typeof THEMES)[number];

/** A page that cannot be shown in any frame (unknown partner or event). */
function refuse(status: number, message: string): never {
  throw data(
    { message },
    { status, headers: { "Content-Security-Policy": "frame-ancestors 'none'" } },
  );
}

async function partnerOf(url: URL, context: AppLoadContext): Promise<PartnerRow> {
  const key = url.searchParams.get("partner") ?? "";
  const partner = key ? await getPartnerByKey(context.db, key) : undefined;
  if (!partner) refuse(404, "This site is not a Gravity Fantasy partner.");
  return partner;
}

/** `?event=ID`, else the open event (else the latest). */
async function eventOf(url: URL, context: AppLoadContext): Promise<EventRow> {
  const asked = url.searchParams.get("event");
  if (asked) {
    const event = /^\d{1,9}$/.test(asked) ? await getEvent(context.db, Number(asked)) : undefined;
    if (!event) refuse(404, "Game not found.");
    return event;
  }
  // The open round (else the latest) of the `competition` asked for, or of any.
  const competition = url.searchParams.get("competition");
  const all = (await listEvents(context.db)).filter(
    (e) => !competition || e.competitionSlug === competition,
  );
  const event =
    all.find((e) => e.status === "open") ??
    [...all].sort((a, b) => b.startsAt.getTime() - a.startsAt.getTime())[0];
  if (!event) refuse(404, "Game not found.");
  return event;
}

export async function loadEmbedTeamSetup(request: Request, context: AppLoadContext) {
  const url = new URL(request.url);
  const partner = await partnerOf(url, context);
  const event = await eventOf(url, context);
  const racers = await listTeamRacers(context.db, event.id);
  // The phase, not only the clock: teams frozen early by a results import are final too.
  const phase = eventPhase(event, context.now());
  const theme = url.searchParams.get("theme");
  return data(
    {
      partner: { name: partner.name, key: partner.publishableKey, origins: partner.origins },
      parentOrigin: parentOrigin(partner, {
        param: url.searchParams.get("origin"),
        referer: request.headers.get("Referer"),
      }),
      event: {
        id: event.id,
        name: event.name,
        status: event.status,
        lockAt: lockTime(event).toISOString(),
        // The competition's rules: the builder judges the team by them as the save does.
        rules: event.rules,
      },
      lockedReason:
        phase === "open"
          ? null
          : refusalText(
              phase === "locked" || phase === "scored" ? "locked" : "not-open",
              event,
              context.now(),
              // Third-party frames mostly get no cookie: then UTC, named.
              readTimeZone(request),
            ),
      racers,
      budget: event.rules.budget,
      theme: (THEMES as readonly string[]).includes(theme ?? "") ? (theme as Theme) : null,
    },
    {
      headers: {
        "Content-Security-Policy": frameAncestors(partner),
        // Per partner and event, no personal data: but never cache a page that frames by list.
        "Cache-Control": "no-store",
      },
    },
  );
}

const FAILURE_STATUS: Record<SaveTeamFailure, number> = {
  "not-found": 404,
  "not-open": 409,
  locked: 409,
  invalid: 422,
};

function answer(result: EmbedActionResult, status = 200) {
  return data(result, { status, headers: { "Cache-Control": "no-store" } });
}

const signedOut = (intent: "save" | "exchange"): EmbedActionResult => ({
  intent,
  ok: false,
  message: "Please sign in again.",
  reasons: [],
  signedOut: true,
});

/** Exchange the popup's token, save the team, or sign out. */
export async function embedTeamSetupAction(request: Request, context: AppLoadContext) {
  const url = new URL(request.url);
  const partner = await partnerOf(url, context);
  const event = await eventOf(url, context);
  const parsed = readEmbedAction(await readForm(request));
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? "Invalid request.";
    return answer({ intent: "unknown", ok: false, message, reasons: [] }, 400);
  }
  const action = parsed.data;
  const now = context.now();

  if (action.intent === "exchange") {
    const session = await exchangeEmbedHandoff(context.db, {
      token: action.token,
      partnerId: partner.id,
      now,
    });
    if (!session) return answer(signedOut("exchange"), 401);
    await recordPartnerStat(context.db, partner.id, "signIns", now).catch(statLost);
    const team = await getTeam(context.db, session.player.id, event.id);
    return answer({
      intent: "exchange",
      ok: true,
      player: {
        session: session.token,
        username: session.player.username,
        expiresAt: session.expiresAt.toISOString(),
        team: team?.racers.map((r) => r.id) ?? [],
        held: heldPrices(team),
        budget: team?.budget ?? event.rules.budget,
        captain: team?.captainId ?? null,
      },
    });
  }

  if (action.intent === "signout") {
    await deleteEmbedSession(context.db, action.session);
    return answer({ intent: "signout", ok: true });
  }

  const session = await getEmbedSession(context.db, {
    token: action.session,
    partnerId: partner.id,
    now,
  });
  if (!session) return answer(signedOut("save"), 401);
  let result: Awaited<ReturnType<typeof saveTeam>>;
  try {
    result = await saveTeam(context.db, {
      userId: session.player.id,
      eventId: event.id,
      racerIds: action.racer,
      captainId: action.captain ?? null,
      now: context.now,
    });
  } catch (error) {
    // The database is out of disk (or memory, connections): the team stays in the builder.
    if (!cannotSave(error, `${request.method} ${new URL(request.url).pathname}`)) throw error;
    context.metrics?.teamSave("unavailable");
    return answer({ intent: "save", ok: false, message: SAVE_FAILED, reasons: [CANNOT_SAVE] }, 503);
  }
  context.metrics?.teamSave(result.ok ? null : result.reason);
  if (result.ok) {
    await recordPartnerStat(context.db, partner.id, "teamSaves", now).catch(statLost);
    return answer({
      intent: "save",
      ok: true,
      message: SAVE_OK,
      team: result.team.racers.map((r) => r.id),
      held: heldPrices(result.team),
      budget: result.team.budget,
      captain: result.team.captainId,
    });
  }
  const reasons =
    result.reason === "invalid"
      ? result.issues.map((i) => i.message)
      : [refusalText(result.reason, event, context.now(), readTimeZone(request))];
  return answer(
    { intent: "save", ok: false, message: SAVE_FAILED, reasons },
    FAILURE_STATUS[result.reason],
  );
}
