import { useLeagueRankings } from "@game/widgets/hooks";
import { LeagueRankings } from "@game/widgets/league-rankings";
import type { ReactElement } from "react";
import type { WidgetProps } from "../runtime";
import { pagedProps, usePageAttribute } from "./common";

/** `<gf-league-rankings competition page>` (without a competition: the live one's leagues) */
export function GfLeagueRankings({ attrs }: WidgetProps): ReactElement {
  const [page, setPage] = usePageAttribute(attrs.page);
  const result = useLeagueRankings({ competition: attrs.competition?.trim() || undefined, page });
  return <LeagueRankings {...pagedProps(result, page, setPage, attrs)} />;
}
