import type { ReactElement, ReactNode } from "react";
import { defaultRenderLink, type WidgetBaseProps } from "./internal/common.js";
import type { PagingProps } from "./internal/pagination.js";
import { type RankingRow, RankingTable } from "./internal/ranking-table.js";
import { ANONYMOUS, samePlayer } from "./rankings.js";
import type { PlayerRanking } from "./types.js";

export type { LinkRenderProps, RenderLink, WidgetBaseProps } from "./internal/common.js";
export type { PagingProps } from "./internal/pagination.js";
// Pure helpers, also in `@game/widgets/helpers`.
export { ANONYMOUS, samePlayer } from "./rankings.js";
export type { PlayerRanking, Theme } from "./types.js";

export interface PlayerRankingsProps extends WidgetBaseProps, PagingProps {
  /** The rows of the current page, already sorted (points, highest first) and ranked. */
  rows: readonly PlayerRanking[];
  /** The viewer's own row: highlighted on the page, or pinned below it when elsewhere. */
  me?: PlayerRanking | null;
  /** Shows ▲/▼ movement from `previousRank` when rows have it; defaults to true. */
  showMovement?: boolean;
  /** Table caption; defaults to "Player rankings". */
  caption?: ReactNode;
  /** Keeps the caption for screen readers only. */
  hideCaption?: boolean;
  /** Text of the "that's you" badge; defaults to "You". */
  meLabel?: string;
  /** Makes usernames links (e.g. to the player's page); rows without a username stay text. */
  playerHref?: (player: PlayerRanking) => string;
}

/** ▲ 2 / ▼ 1 / – from the previous rank (smaller rank is better). */
export function Movement({ rank, previousRank }: PlayerRanking): ReactElement | null {
  if (typeof previousRank !== "number" || previousRank <= 0) return null;
  const delta = previousRank - rank;
  const up = delta > 0;
  const n = Math.abs(delta);
  const [kind, mark, said] =
    delta === 0
      ? ["same", "–", ", no change"]
      : [
          up ? "up" : "down",
          `${up ? "▲" : "▼"}${n}`,
          `, ${up ? "up" : "down"} ${n} ${n === 1 ? "place" : "places"}`,
        ];
  // Two elements with one text node each: this runs for 50 rows a page, and React's server
  // render marks every boundary between adjacent text parts with a comment.
  return (
    <>
      <span className={`gf-move gf-move--${kind}`} aria-hidden="true">
        {mark}
      </span>
      <span className="gf-sr-only">{said}</span>
    </>
  );
}

/** Player ranking: Rank, Username, Points, with paging and the viewer's row. */
export function PlayerRankings(props: PlayerRankingsProps): ReactElement {
  const { rows, me, showMovement = true, meLabel = "You", playerHref } = props;
  const renderLink = props.renderLink ?? defaultRenderLink;
  const meOnPage = me ? rows.some((r) => samePlayer(r, me)) : false;

  const toRow = (r: PlayerRanking, key: string | number): RankingRow => {
    const mine = me ? samePlayer(r, me) : false;
    const label = r.username || ANONYMOUS;
    return {
      key,
      mine,
      points: r.points,
      rank: (
        <>
          {r.rank}
          {showMovement ? <Movement {...r} /> : null}
        </>
      ),
      name: (
        <>
          {playerHref && r.username
            ? renderLink({ href: playerHref(r), className: "gf-link", children: label })
            : label}
          {mine ? <span className="gf-badge gf-badge--me">{meLabel}</span> : null}
        </>
      ),
    };
  };

  const { rows: _rows, caption, ...rest } = props;
  return (
    <RankingTable
      {...rest}
      caption={caption}
      name="gf-player-rankings"
      nameHeader="Username"
      pointsHeader="Points"
      defaultCaption="Player rankings"
      defaultEmpty="No players ranked yet."
      pagesLabel="Player rankings pages"
      rows={rows.map((r, i) => toRow(r, r.id ?? `${r.rank}-${r.username ?? ""}-${i}`))}
      pinned={me && !meOnPage ? toRow(me, "me") : null}
    />
  );
}
