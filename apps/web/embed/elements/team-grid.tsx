import { formatPrice } from "@game/widgets/helpers";
import { useTeam } from "@game/widgets/hooks";
import { newTabLink, TeamGrid } from "@game/widgets/team-grid";
import type { ReactElement } from "react";
import type { WidgetProps } from "../runtime";
import { errorMessage, intOf, racerPage, themeOf } from "./common";
import { usernameOf } from "./widget-attributes";

/** `<gf-team-grid username event>` */
export function GfTeamGrid({ attrs, ctx }: WidgetProps): ReactElement {
  const username = usernameOf(attrs);
  const result = useTeam(username, intOf(attrs.event));
  const team = result.data?.data;
  return (
    <TeamGrid
      racers={team?.racers ?? []}
      readOnly
      label={team ? `${team.username}'s team` : "Team"}
      // The grid shows the budget less today's prices: the team's worth plus the player's bank
      // (the API's bank is the player's own, docs/decisions/0141).
      budget={team ? team.cost + team.bank : undefined}
      // The captain and the bench rider, where the competition has them (decisions 0168, 0169).
      renderMeta={(r) =>
        `${r.id === team?.captainId ? "Captain · " : r.id === team?.benchId ? "Bench · " : ""}${r.category} · ${formatPrice(r.price)}`
      }
      racerHref={racerPage(ctx)}
      renderLink={newTabLink}
      loading={result.loading}
      error={username ? errorMessage(result.error) : "Set the username attribute to show a team."}
      onRetry={result.reload}
      theme={themeOf(attrs)}
    />
  );
}
