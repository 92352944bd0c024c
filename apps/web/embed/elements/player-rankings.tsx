import { usePlayerRankings } from "@game/widgets/hooks";
import { useLiveScores } from "@game/widgets/live-scores";
import { PlayerRankings } from "@game/widgets/player-rankings";
import type { ReactElement } from "react";
import type { WidgetProps } from "../runtime";
import { competitionOf, intOf, useEventId } from "./common";
import { pagedProps, usePageAttribute } from "./paging";

/**
 * `<gf-player-rankings competition event page>` (without a competition: the live one's table).
 * Moves by itself while its round's results come in (docs/decisions/0171).
 */
export function GfPlayerRankings({ attrs }: WidgetProps): ReactElement {
  const [page, setPage] = usePageAttribute(attrs.page);
  const competition = competitionOf(attrs);
  // The round shown, else the competition's open round: on race day the table moves with it.
  const round = useEventId(attrs.event, competition);
  const result = usePlayerRankings({ competition, event: intOf(attrs.event), page });
  useLiveScores(round.id, result.reload);
  return (
    <PlayerRankings
      {...pagedProps(result, page, setPage, attrs)}
      emptyMessage="No players ranked yet: rankings appear after the first race results."
    />
  );
}
