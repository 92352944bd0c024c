/** Data for the leagues panel on the event home. */
import { type LeagueView, listLeaguesForUser } from "@game/db";
import type { AppLoadContext } from "@remix-run/node";
import type { SessionUser } from "~/utils/auth.server";
import { logError } from "~/utils/log.server";
import { joinPath, loginPath, publicOrigin } from "./paths.server";
import type { LeagueCardData, LeaguesPanelData } from "./types";

export function toCard(view: LeagueView, userId: number, origin: string): LeagueCardData {
  // Longest-standing other member: who takes over if the owner leaves (same rule as the service).
  const successor =
    view.role === "owner"
      ? ([...view.members]
          .filter((m) => m.userId !== userId)
          .sort((a, b) => a.joinedAt.getTime() - b.joinedAt.getTime() || a.userId - b.userId)[0]
          ?.username ?? null)
      : null;
  return {
    id: view.id,
    name: view.name,
    totalPoints: view.totalPoints,
    ranking: view.ranking,
    role: view.role,
    members: view.members.map((m) => ({
      userId: m.userId,
      username: m.username,
      score: m.score,
      status: m.status,
      isOwner: m.isOwner,
      isYou: m.userId === userId,
    })),
    invited: view.invited,
    shareLink: view.joinCode ? `${origin}${joinPath(view.joinCode)}` : null,
    invitedBy: view.invitedBy,
    successor,
    competition: view.competition,
    renewInto: view.renewInto,
  };
}

/**
 * The panel's data. A failure to read the leagues is logged and reported in the panel, so the
 * rest of the event home still renders.
 */
export async function loadLeaguesPanel(
  request: Request,
  context: AppLoadContext,
  user: SessionUser | null,
  opts: { hasTeam: boolean },
): Promise<LeaguesPanelData> {
  const url = new URL(request.url);
  const base: LeaguesPanelData = {
    signedIn: user !== null,
    hasTeam: user !== null && opts.hasTeam,
    leagues: [],
    loadFailed: false,
    loginHref: loginPath(url.pathname),
    unconfirmedEmail: user && !user.emailConfirmedAt ? user.email : null,
    here: url.pathname,
  };
  if (!user) return base;
  try {
    const views = await listLeaguesForUser(context.db, user);
    const origin = publicOrigin(request, context);
    return { ...base, leagues: views.map((v) => toCard(v, user.id, origin)) };
  } catch (error) {
    logError("leagues panel: could not list leagues", error);
    return { ...base, loadFailed: true };
  }
}
