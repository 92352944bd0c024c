import type { ReactElement, ReactNode } from "react";
import { defaultRenderLink, type WidgetBaseProps } from "./internal/common.js";
import type { PagingProps } from "./internal/pagination.js";
import { type RankingRow, RankingTable } from "./internal/ranking-table.js";
import type { LeagueRanking } from "./types.js";

export type { LinkRenderProps, RenderLink, WidgetBaseProps } from "./internal/common.js";
export type { PagingProps } from "./internal/pagination.js";
export type { LeagueRanking, Theme } from "./types.js";

export interface LeagueRankingsProps extends WidgetBaseProps, PagingProps {
  /** The rows of the current page, already sorted (total points, highest first) and ranked. */
  rows: readonly LeagueRanking[];
  /** Ids of leagues to highlight (e.g. the viewer's leagues). */
  highlightIds?: readonly (string | number)[];
  /** Makes league names links. */
  leagueHref?: (league: LeagueRanking) => string;
  /** Table caption; defaults to "League rankings". */
  caption?: ReactNode;
  /** Keeps the caption for screen readers only. */
  hideCaption?: boolean;
}

/** League ranking: Rank, League Name, Total Points, with paging. */
export function LeagueRankings(props: LeagueRankingsProps): ReactElement {
  const { rows, highlightIds = [], leagueHref, caption, ...rest } = props;
  const renderLink = props.renderLink ?? defaultRenderLink;
  const highlighted = new Set(highlightIds.map(String));

  const toRow = (league: LeagueRanking, i: number): RankingRow => {
    const mine = league.id != null && highlighted.has(String(league.id));
    return {
      key: league.id ?? `${league.rank}-${i}`,
      rank: league.rank,
      points: league.totalPoints,
      mine,
      name: (
        <>
          {leagueHref
            ? renderLink({ href: leagueHref(league), className: "gf-link", children: league.name })
            : league.name}
          {mine ? (
            <span className="gf-badge gf-badge--me">
              <span className="gf-sr-only">, </span>Your league
            </span>
          ) : null}
        </>
      ),
    };
  };

  return (
    <RankingTable
      {...rest}
      caption={caption}
      name="gf-league-rankings"
      nameHeader="League Name"
      pointsHeader="Total Points"
      defaultCaption="League rankings"
      defaultEmpty="No leagues yet."
      pagesLabel="League rankings pages"
      rows={rows.map(toRow)}
    />
  );
}
