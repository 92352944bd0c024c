/** The page an invitation e-mail links to (`/leagues/:id/invitation`). */
import { getLeagueForUser } from "@game/db";
import { type AppLoadContext, data, redirect } from "@remix-run/node";
import { getUser } from "~/utils/auth.server";
import { parseId } from "~/utils/request.server";
import { invitationPath, leaguesHomePath, loginPath, signupPath } from "./paths.server";

export type InvitationPage =
  /** Not signed in: sign up (or log in) first, then come back here. Nothing about the league. */
  | { state: "visitor"; signupHref: string; loginHref: string }
  /** Signed in, but no open invitation for this player's e-mail (or no such league). */
  | { state: "unavailable"; email: string; home: string }
  /**
   * Signed in with an address not confirmed yet: invitations are shown to the address's owner
   * only, so nothing about the league until the mailed link is used (decision 0151).
   */
  | { state: "unconfirmed"; email: string; here: string }
  | {
      state: "invited";
      home: string;
      league: {
        id: number;
        name: string;
        invitedBy: string | null;
        totalPoints: number;
        members: { username: string; score: number; isOwner: boolean }[];
      };
    };

export async function loadInvitationPage(
  request: Request,
  context: AppLoadContext,
  idParam: string | undefined,
) {
  const id = parseId(idParam) ?? Number.NaN;
  const here = Number.isNaN(id) ? "/" : invitationPath(id);
  const user = await getUser(request, context);
  if (!user) {
    return data<InvitationPage>({
      state: "visitor",
      signupHref: signupPath(here),
      loginHref: loginPath(here),
    });
  }
  if (!user.emailConfirmedAt) {
    return data<InvitationPage>({ state: "unconfirmed", email: user.email, here });
  }
  const home = await leaguesHomePath(request, context);
  const view = Number.isNaN(id) ? null : await getLeagueForUser(context.db, user, id);
  if (!view) return data<InvitationPage>({ state: "unavailable", email: user.email, home }, 404);
  // Already in (accepted earlier, or joined by link): straight to the league.
  if (view.role !== "invited") throw redirect(`${home}#league-${view.id}`);
  return data<InvitationPage>({
    state: "invited",
    home,
    league: {
      id: view.id,
      name: view.name,
      invitedBy: view.invitedBy,
      totalPoints: view.totalPoints,
      members: view.members.map((m) => ({
        username: m.username,
        score: m.score,
        isOwner: m.isOwner,
      })),
    },
  });
}
