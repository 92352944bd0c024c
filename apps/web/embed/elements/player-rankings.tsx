import { usePlayerRankings } from "@game/widgets/hooks";
import { PlayerRankings } from "@game/widgets/player-rankings";
import type { ReactElement } from "react";
import type { WidgetProps } from "../runtime";
import { intOf, pagedProps, usePageAttribute } from "./common";

/** `<gf-player-rankings competition event page>` (without a competition: the live one's table) */
export function GfPlayerRankings({ attrs }: WidgetProps): ReactElement {
  const [page, setPage] = usePageAttribute(attrs.page);
  const result = usePlayerRankings({
    competition: attrs.competition?.trim() || undefined,
    event: intOf(attrs.event),
    page,
  });
  return (
    <PlayerRankings
      {...pagedProps(result, page, setPage, attrs)}
      emptyMessage="No players ranked yet: rankings appear after the first race results."
    />
  );
}
