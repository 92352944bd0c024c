import { type ReactElement, type ReactNode, useId } from "react";
import { formatPoints } from "./format.js";
import {
  cx,
  rootProps,
  StateMessage,
  TableScroll,
  viewState,
  type WidgetBaseProps,
} from "./internal/common.js";
import { Pagination, type PagingProps } from "./internal/pagination.js";
import type { PlayerRanking } from "./types.js";

export type { LinkRenderProps, RenderLink, WidgetBaseProps } from "./internal/common.js";
export type { PagingProps } from "./internal/pagination.js";
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
}

export const ANONYMOUS = "Anonymous";

/** Same player? By `id` when both rows have one, else by username. */
export function samePlayer(a: PlayerRanking, b: PlayerRanking): boolean {
  if (a.id != null && b.id != null) return String(a.id) === String(b.id);
  return a.username != null && a.username === b.username;
}

/** ▲ 2 / ▼ 1 / – from the previous rank (smaller rank is better). */
export function Movement({ rank, previousRank }: PlayerRanking): ReactElement | null {
  if (typeof previousRank !== "number" || previousRank <= 0) return null;
  const delta = previousRank - rank;
  if (delta === 0) {
    return (
      <span className="gf-move gf-move--same">
        <span aria-hidden="true">–</span>
        <span className="gf-sr-only">, no change</span>
      </span>
    );
  }
  const up = delta > 0;
  const n = Math.abs(delta);
  return (
    <span className={cx("gf-move", up ? "gf-move--up" : "gf-move--down")}>
      <span aria-hidden="true">
        {up ? "▲" : "▼"}
        {n}
      </span>
      <span className="gf-sr-only">
        , {up ? "up" : "down"} {n} {n === 1 ? "place" : "places"}
      </span>
    </span>
  );
}

/** Player ranking: Rank, Username, Points, with paging and the viewer's row. */
export function PlayerRankings(props: PlayerRankingsProps): ReactElement {
  const { rows, me, showMovement = true, hideCaption, meLabel = "You" } = props;
  const id = useId();
  const state = viewState(props, rows.length === 0);
  const meOnPage = me ? rows.some((r) => samePlayer(r, me)) : false;

  const row = (r: PlayerRanking, key: string | number, pinned = false) => {
    const mine = me ? samePlayer(r, me) : false;
    return (
      <tr
        key={key}
        className={cx(mine && "gf-row--me", pinned && "gf-row--pinned")}
        aria-current={mine ? "true" : undefined}
      >
        <td className="gf-col-rank">
          {r.rank}
          {showMovement ? <Movement {...r} /> : null}
        </td>
        <th scope="row" className="gf-col-name">
          {r.username || ANONYMOUS}
          {mine ? <span className="gf-badge gf-badge--me">{meLabel}</span> : null}
        </th>
        <td className="gf-num">{formatPoints(r.points)}</td>
      </tr>
    );
  };

  return (
    <div {...rootProps("gf-rankings gf-player-rankings", props)}>
      <TableScroll labelledBy={`${id}-caption`}>
        <table className="gf-table" aria-busy={state === "loading" || undefined}>
          <caption id={`${id}-caption`} className={cx("gf-caption", hideCaption && "gf-sr-only")}>
            {props.caption ?? "Player rankings"}
          </caption>
          <thead>
            <tr>
              <th scope="col" className="gf-col-rank">
                Rank
              </th>
              <th scope="col">Username</th>
              <th scope="col" className="gf-num">
                Points
              </th>
            </tr>
          </thead>
          <tbody>
            {state !== "data" ? (
              <tr>
                <td colSpan={3}>
                  <StateMessage state={state} base={props} defaultEmpty="No players ranked yet." />
                </td>
              </tr>
            ) : (
              rows.map((r, i) => row(r, r.id ?? `${r.rank}-${r.username ?? ""}-${i}`))
            )}
          </tbody>
          {state === "data" && me && !meOnPage ? (
            <tbody className="gf-pinned">
              <tr className="gf-row--gap">
                <td colSpan={3}>
                  <span aria-hidden="true">…</span>
                  <span className="gf-sr-only">Your position</span>
                </td>
              </tr>
              {row(me, "me", true)}
            </tbody>
          ) : null}
        </table>
      </TableScroll>
      {state === "error" ? null : <Pagination {...props} label="Player rankings pages" />}
    </div>
  );
}
