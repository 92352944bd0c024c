/**
 * What each widget asks the API for as it first shows, from its element's attributes. The hello
 * (`/embed/v1/hello`) makes the same requests on the game's server and sends their answers back
 * with it, so a widget's data arrives with its code: two round trips after the page, not three
 * (docs/decisions/0182). `first-requests.test.tsx` holds this to the widgets' own requests.
 */
import type { GameClient } from "@game/widgets/client";
import { competitionOf, intOf, shownEvent } from "./elements/attributes";
import { onlyCategoryOf, pageOf, usernameOf } from "./elements/widget-attributes";
import type { Attributes } from "./runtime";

/** The attributes the plan reads: the hello is sent every attribute and keeps only these. */
export const PLAN_ATTRIBUTES = [
  "event",
  "competition",
  "category",
  "hide-tabs",
  "page",
  "username",
];

/** The attributes of `raw` the plan reads, each a short string (a longer one counts as absent). */
export function planAttributes(raw: Record<string, unknown>): Attributes {
  const attrs: Attributes = {};
  for (const name of PLAN_ATTRIBUTES) {
    const value = raw[name];
    if (typeof value === "string" && value.length <= 512) attrs[name] = value;
  }
  return attrs;
}

/**
 * Runs, through `client`, the requests the widget `tag` makes as it first shows with `attrs`
 * (none for a tag without API data). Stops where the widget would: a refused request is the
 * widget's own error to show.
 */
export async function firstRequests(
  tag: string,
  attrs: Attributes,
  client: GameClient,
): Promise<void> {
  const competition = competitionOf(attrs);
  const event = intOf(attrs.event);
  const page = pageOf(attrs.page);
  // The event a widget without an `event` attribute shows: the competition's open round.
  const shown = async () => event ?? shownEvent((await client.getEvents({ competition })).data);
  switch (tag) {
    case "gf-racer-table": {
      const only = onlyCategoryOf(attrs);
      const id = await shown();
      if (id != null) await client.getRacers(id, only ? { category: only } : {});
      return;
    }
    case "gf-player-rankings":
      await Promise.allSettled([shown(), client.getPlayerRankings({ competition, event, page })]);
      return;
    case "gf-league-rankings":
      await Promise.allSettled([
        client.getEvents({ competition }),
        client.getLeagueRankings({ competition, page }),
      ]);
      return;
    case "gf-team-grid": {
      const username = usernameOf(attrs);
      if (username) await client.getTeam(username, { event });
      return;
    }
  }
}
