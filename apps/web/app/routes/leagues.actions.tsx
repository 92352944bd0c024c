/** Every league form posts here; see league-actions.server.ts. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { handleLeagueAction } from "~/features/leagues/league-actions.server";
import { leaguesHomePath } from "~/features/leagues/paths.server";

export const action = ({ request, context }: ActionFunctionArgs) =>
  handleLeagueAction(request, context);

/** Nothing to show here: a GET (a typed URL, a reload after a post) goes to the leagues. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return redirect(await leaguesHomePath(request, context));
}
