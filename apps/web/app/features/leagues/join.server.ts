/** The shareable invite link (`/leagues/join/:code`): see the league, then join it. */
import { getLeagueByJoinCode, getLeagueForUser, isRemovedFromLeague, joinByCode } from "@game/db";
import { type AppLoadContext, data, redirect } from "@remix-run/node";
import { getUser } from "~/utils/auth.server";
import { logError } from "~/utils/log.server";
import { NOTICE_PARAM, withParams } from "./notices";
import { joinPath, leaguesHomePath, loginPath, signupPath } from "./paths.server";

export type JoinPage =
  | { state: "invalid" }
  | {
      /**
       * `removed`: the owner removed this player; only the owner's invitation lets them back.
       * `unconfirmed`: the player's e-mail address waits for its confirmation (decision 0151).
       */
      state: "visitor" | "can-join" | "member" | "removed" | "unconfirmed";
      league: { id: number; name: string; memberCount: number };
      signupHref: string;
      loginHref: string;
      home: string;
      /** The signed-in player's address (the unconfirmed page names it). */
      email?: string;
      /** This page's path, to come back to after confirming. */
      here: string;
    };

export async function loadJoinPage(
  request: Request,
  context: AppLoadContext,
  code: string | undefined,
) {
  const league = code ? await getLeagueByJoinCode(context.db, code) : null;
  if (!league || !code) return data<JoinPage>({ state: "invalid" }, 404);
  const user = await getUser(request, context);
  const here = joinPath(code);
  const common = {
    league,
    signupHref: signupPath(here),
    loginHref: loginPath(here),
    home: await leaguesHomePath(request, context),
    here,
  };
  if (!user) return data<JoinPage>({ state: "visitor", ...common });
  const view = await getLeagueForUser(context.db, user, league.id);
  const member = view !== null && view.role !== "invited";
  if (member) return data<JoinPage>({ state: "member", ...common });
  if (!user.emailConfirmedAt) {
    return data<JoinPage>({ state: "unconfirmed", ...common, email: user.email });
  }
  const removed = await isRemovedFromLeague(context.db, user, league.id);
  return data<JoinPage>({ state: removed ? "removed" : "can-join", ...common });
}

export async function joinAction(
  request: Request,
  context: AppLoadContext,
  code: string | undefined,
): Promise<Response> {
  const here = joinPath(code ?? "");
  const user = await getUser(request, context);
  if (!user) return redirect(loginPath(here));
  const home = await leaguesHomePath(request, context);
  try {
    const r = await joinByCode(context.db, user, code ?? "");
    if (!r.ok) return redirect(here);
    const notice = r.outcome === "joined" ? "joined" : "already-joined";
    return redirect(withParams(home, { [NOTICE_PARAM]: notice }, `league-${r.league.id}`));
  } catch (error) {
    logError(`joining league by link failed for user ${user.id}`, error);
    return redirect(withParams(home, { [NOTICE_PARAM]: "failed" }));
  }
}
