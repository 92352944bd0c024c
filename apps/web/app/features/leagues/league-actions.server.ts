/**
 * Every league form posts here (`/leagues/actions`) and is answered with a redirect back to the
 * page it came from, carrying a short notice. Works the same with or without JavaScript.
 *
 * Failures the spec "only logs" are logged with console.error and answered with a notice; the
 * services write in one transaction each, so a failure never leaves half a change behind. The
 * two-step actions are an invite and an owner removing a member: the e-mail goes after the change
 * is saved, and a failed send says exactly that ("invite-mail-failed",
 * "member-removed-mail-failed"), never "nothing was changed".
 */
import {
  acceptInvitation,
  createLeague,
  deleteLeague,
  dismissInvitation,
  getTeam,
  hit,
  inviteToLeague,
  leaveLeague,
  removeLeagueMember,
  renewLeague,
  resetJoinCode,
} from "@game/db";
import { type AppLoadContext, redirect } from "@remix-run/node";
import { getUser, type SessionUser } from "~/utils/auth.server";
import { logError } from "~/utils/log.server";
import { sendMail } from "~/utils/mailer.server";
import { parseId, readForm } from "~/utils/request.server";
import { safeRedirect } from "~/utils/safe-redirect";
import {
  createLeagueFormSchema,
  emailProblem,
  intentSchema,
  inviteFormSchema,
  leagueRefFormSchema,
  nameProblem,
  removeMemberFormSchema,
} from "./form-schemas";
import type { LeagueIntent } from "./forms";
import { invitationMail } from "./invitation-mail";
import {
  CONFIRM_PARAM,
  LEAGUE_PARAM,
  type LeagueNoticeCode,
  MEMBER_PARAM,
  NOTICE_PARAM,
  withParams,
} from "./notices";
import { invitationPath, leaguesHomePath, loginPath, publicOrigin } from "./paths.server";
import { removalMail } from "./removal-mail";
import { renewalMail } from "./renewal-mail";

/** Invitations one player may send per hour, across leagues: keeps the game from relaying spam. */
export const INVITES_PER_HOUR = 40;

interface ActionInput {
  request: Request;
  context: AppLoadContext;
  user: SessionUser;
  form: FormData;
  back: string;
}

type Handler = (input: ActionInput) => Promise<Response>;

const field = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v : undefined;
};

function goBack(path: string, notice?: LeagueNoticeCode, leagueId?: number): Response {
  return redirect(
    withParams(
      path,
      { [NOTICE_PARAM]: notice },
      leagueId !== undefined ? `league-${leagueId}` : undefined,
    ),
  );
}

/** The league named by the form, or null when the id is missing or malformed. */
function leagueIdOf(form: FormData): number | null {
  const parsed = leagueRefFormSchema.safeParse({ leagueId: field(form, "leagueId") });
  return parsed.success ? parsed.data.leagueId : null;
}

/** Leave, delete and remove go through a confirmation first: unconfirmed, the page asks. */
function unconfirmed(
  input: ActionInput,
  intent: "leave" | "delete" | "remove",
  id: number,
  memberId?: number,
): Response | null {
  if (field(input.form, "confirmed") === "yes") return null;
  return redirect(
    withParams(
      input.back,
      { [CONFIRM_PARAM]: intent, [LEAGUE_PARAM]: id, [MEMBER_PARAM]: memberId },
      `league-${id}`,
    ),
  );
}

const handlers: Record<LeagueIntent, Handler> = {
  async create({ context, user, form, back: path }) {
    const parsed = createLeagueFormSchema.safeParse({ name: field(form, "name") });
    if (!parsed.success) return goBack(path, nameProblem(parsed.error));
    // The event home only offers "Create a League" once the player has a team for its event.
    const game = parseId(field(form, "game"));
    const team = game !== null ? await getTeam(context.db, user.id, game) : null;
    if (!team || team.racers.length === 0) return goBack(path, "no-team");
    const r = await createLeague(context.db, user, parsed.data.name);
    if (!r.ok) {
      const why = { invalid: "name-invalid", "league-limit": "league-limit" } as const;
      return goBack(path, why[r.reason as keyof typeof why] ?? "failed");
    }
    return goBack(path, "created", r.league.id);
  },

  async invite({ request, context, user, form, back: path }) {
    const parsed = inviteFormSchema.safeParse({
      leagueId: field(form, "leagueId"),
      email: field(form, "email"),
    });
    if (!parsed.success) {
      const id = leagueIdOf(form);
      return goBack(path, emailProblem(parsed.error), id ?? undefined);
    }
    const { leagueId, email } = parsed.data;
    const rate = await hit(context.db, `league-invite:user:${user.id}`, {
      limit: INVITES_PER_HOUR,
      windowMs: 60 * 60 * 1000,
      now: context.now(),
    });
    if (!rate.allowed) return goBack(path, "invite-rate", leagueId);
    const r = await inviteToLeague(context.db, user, leagueId, email, { now: context.now() });
    if (!r.ok) {
      const why = {
        limit: "invite-limit",
        removed: "invite-removed",
        invalid: "email-invalid",
        unconfirmed: "confirm-first",
        "daily-limit": "invite-daily",
        "recipient-limit": "invite-recipient",
      } as const;
      const notice = why[r.reason as keyof typeof why];
      return notice ? goBack(path, notice, leagueId) : goBack(path, "not-found");
    }
    if (r.outcome !== "invited") return goBack(path, r.outcome, leagueId);
    // The invitation is committed; the mail follows. A failed send keeps the invitation, so from
    // here on no failure may reach the catch-all's "nothing was changed": a delivery error comes
    // back as "failed", and anything thrown (the outbox write, building the mail) is caught here.
    try {
      const link = `${publicOrigin(request, context)}${invitationPath(leagueId)}`;
      const sent = await sendMail(
        context,
        invitationMail({ to: r.email, leagueName: r.league.name, inviter: r.inviter, link }),
      );
      if (sent.status !== "failed") return goBack(path, "invited", leagueId);
    } catch (error) {
      logError(`league ${leagueId}: invitation saved, but its e-mail failed`, error);
    }
    return goBack(path, "invite-mail-failed", leagueId);
  },

  async accept({ context, user, form, back: path }) {
    const id = leagueIdOf(form);
    const r = id === null ? null : await acceptInvitation(context.db, user, id);
    if (r && !r.ok && r.reason === "unconfirmed") return goBack(path, "confirm-first");
    if (!r?.ok) return goBack(path, "not-found");
    return goBack(path, "accepted", r.league.id);
  },

  async dismiss({ context, user, form, back: path }) {
    const id = leagueIdOf(form);
    const r = id === null ? null : await dismissInvitation(context.db, user, id);
    if (r && !r.ok && r.reason === "unconfirmed") return goBack(path, "confirm-first");
    return goBack(path, r?.ok ? "dismissed" : "not-found");
  },

  async leave(input) {
    const id = leagueIdOf(input.form);
    if (id === null) return goBack(input.back, "not-found");
    const ask = unconfirmed(input, "leave", id);
    if (ask) return ask;
    const r = await leaveLeague(input.context.db, input.user, id);
    if (!r.ok) return goBack(input.back, "not-found");
    const notice = {
      left: "left",
      "ownership-passed": "ownership-passed",
      "league-deleted": "left-deleted",
    } as const;
    return goBack(input.back, notice[r.outcome]);
  },

  async delete(input) {
    const id = leagueIdOf(input.form);
    // Spec: a non-owner's delete is refused silently. Nothing changes, no notice, back we go.
    if (id === null) return goBack(input.back);
    const ask = unconfirmed(input, "delete", id);
    if (ask) return ask;
    const r = await deleteLeague(input.context.db, input.user, id);
    return r.ok ? goBack(input.back, "deleted") : goBack(input.back);
  },

  async remove(input) {
    const parsed = removeMemberFormSchema.safeParse({
      leagueId: field(input.form, "leagueId"),
      memberId: field(input.form, "memberId"),
    });
    if (!parsed.success) return goBack(input.back, "not-found");
    const { leagueId, memberId } = parsed.data;
    const ask = unconfirmed(input, "remove", leagueId, memberId);
    if (ask) return ask;
    const { request, context, user } = input;
    const r = await removeLeagueMember(context.db, { leagueId, owner: user, memberId });
    if (!r.ok) {
      return goBack(input.back, r.reason === "invalid" ? "remove-self" : "not-found", leagueId);
    }
    // The removal is committed; the mail follows. As with an invitation, a failed or throwing
    // send must not reach the catch-all's "nothing was changed".
    try {
      const sent = await sendMail(
        context,
        removalMail({
          to: r.member.email,
          username: r.member.username,
          leagueName: r.league.name,
          owner: r.owner.username,
          link: `${publicOrigin(request, context)}/`,
        }),
      );
      if (sent.status !== "failed") return goBack(input.back, "member-removed", leagueId);
    } catch (error) {
      logError(`league ${leagueId}: member ${memberId} removed, but the e-mail failed`, error);
    }
    return goBack(input.back, "member-removed-mail-failed", leagueId);
  },

  async renew({ request, context, user, form, back: path }) {
    const id = leagueIdOf(form);
    const r = id === null ? null : await renewLeague(context.db, user, id);
    if (!r) return goBack(path, "not-found");
    if (!r.ok) return goBack(path, r.reason === "renewed" ? "renew-refused" : "not-found", id!);
    // The renewal is committed; each member is told. A failed send is said, not undone.
    let failed = false;
    for (const m of r.members) {
      try {
        const sent = await sendMail(
          context,
          renewalMail({
            to: m.email,
            username: m.username,
            leagueName: r.league.name,
            owner: r.owner.username,
            competition: r.competition.name,
            link: `${publicOrigin(request, context)}/leagues`,
          }),
        );
        if (sent.status === "failed") failed = true;
      } catch (error) {
        failed = true;
        logError(`league ${id}: renewed as ${r.league.id}, but an e-mail failed`, error);
      }
    }
    return goBack(path, failed ? "renewed-mail-failed" : "renewed", r.league.id);
  },

  async "reset-code"({ context, user, form, back: path }) {
    const id = leagueIdOf(form);
    const r = id === null ? null : await resetJoinCode(context.db, user, id);
    if (!r?.ok) return goBack(path, "not-found");
    return goBack(path, "code-reset", id!);
  },
};

export async function handleLeagueAction(
  request: Request,
  context: AppLoadContext,
): Promise<Response> {
  const form = await readForm(request);
  // Back to the page the form was on; the leagues' home only when that is missing or off-site.
  const path =
    safeRedirect(field(form, "redirectTo"), "") || (await leaguesHomePath(request, context));
  const user = await getUser(request, context);
  // A visitor (or an expired session) logs in and comes back to the page the form was on.
  if (!user) return redirect(loginPath(path));
  const intent = intentSchema.safeParse(field(form, "intent"));
  if (!intent.success) return goBack(path, "not-found");
  try {
    return await handlers[intent.data]({ request, context, user, form, back: path });
  } catch (error) {
    logError(`league action "${intent.data}" failed for user ${user.id}`, error);
    return goBack(path, "failed");
  }
}
