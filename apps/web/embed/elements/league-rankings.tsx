import { useLeagueRankings } from "@game/widgets/hooks";
import { LeagueRankings } from "@game/widgets/league-rankings";
import { useLiveScores } from "@game/widgets/live-scores";
import type { ReactElement } from "react";
import type { WidgetProps } from "../runtime";
import { competitionOf, useEventId } from "./common";
import { pagedProps, usePageAttribute } from "./paging";

/** `<gf-league-rankings competition page>` (without a competition: the live one's leagues) */
export function GfLeagueRankings({ attrs }: WidgetProps): ReactElement {
  const [page, setPage] = usePageAttribute(attrs.page);
  const competition = competitionOf(attrs);
  const result = useLeagueRankings({ competition, page });
  // The competition's open round: on race day the leagues move with it (docs/decisions/0171).
  useLiveScores(useEventId(null, competition).id, result.reload);
  return <LeagueRankings {...pagedProps(result, page, setPage, attrs)} />;
}
