import { usePlayerRankings } from "@game/widgets/hooks";
import { PlayerRankings } from "@game/widgets/player-rankings";
import type { ReactElement } from "react";
import type { WidgetProps } from "../runtime";
import { intOf, pagedProps, usePageAttribute } from "./common";

/** `<gf-player-rankings event page>` */
export function GfPlayerRankings({ attrs }: WidgetProps): ReactElement {
  const [page, setPage] = usePageAttribute(attrs.page);
  const result = usePlayerRankings({ event: intOf(attrs.event), page });
  return (
    <PlayerRankings
      {...pagedProps(result, page, setPage, attrs)}
      emptyMessage="No players ranked yet: rankings appear after the first race results."
    />
  );
}
