import { type ReactElement, type ReactNode, useId } from "react";
import { formatPoints } from "../format.js";
import {
  cx,
  rootProps,
  StateMessage,
  TableScroll,
  viewState,
  type WidgetBaseProps,
} from "./common.js";
import { Pagination, type PagingProps } from "./pagination.js";

/** One ranked row as the shared table draws it. */
export interface RankingRow {
  key: string | number;
  rank: ReactNode;
  name: ReactNode;
  points: number | null | undefined;
  /** Highlighted as the viewer's own (player or league). */
  mine?: boolean;
}

export interface RankingTableProps extends WidgetBaseProps, PagingProps {
  /** Widget class (after `gf-rankings`). */
  name: string;
  nameHeader: string;
  pointsHeader: string;
  defaultCaption: string;
  caption?: ReactNode;
  hideCaption?: boolean | undefined;
  defaultEmpty: string;
  pagesLabel: string;
  rows: readonly RankingRow[];
  /** A row pinned below the page (the viewer's own, when it is on another page). */
  pinned?: RankingRow | null;
  pinnedLabel?: string;
}

/** Rank / name / points table with the loading, error and empty states and paging. */
export function RankingTable(props: RankingTableProps): ReactElement {
  const { rows, pinned, hideCaption } = props;
  const id = useId();
  const state = viewState(props, rows.length === 0);

  const row = (r: RankingRow, isPinned = false) => (
    <tr
      key={isPinned ? "pinned" : r.key}
      className={cx(r.mine && "gf-row--me", isPinned && "gf-row--pinned")}
      aria-current={r.mine ? "true" : undefined}
    >
      <td className="gf-col-rank">{r.rank}</td>
      <th scope="row" className="gf-col-name">
        {r.name}
      </th>
      <td className="gf-num">{formatPoints(r.points)}</td>
    </tr>
  );

  return (
    <div {...rootProps(`gf-rankings ${props.name}`, props)}>
      <TableScroll labelledBy={`${id}-caption`}>
        <table className="gf-table" aria-busy={state === "loading" || undefined}>
          <caption id={`${id}-caption`} className={cx("gf-caption", hideCaption && "gf-sr-only")}>
            {props.caption ?? props.defaultCaption}
          </caption>
          <thead>
            <tr>
              <th scope="col" className="gf-col-rank">
                Rank
              </th>
              <th scope="col">{props.nameHeader}</th>
              <th scope="col" className="gf-num">
                {props.pointsHeader}
              </th>
            </tr>
          </thead>
          <tbody>
            {state !== "data" ? (
              <tr>
                <td colSpan={3}>
                  <StateMessage state={state} base={props} defaultEmpty={props.defaultEmpty} />
                </td>
              </tr>
            ) : (
              rows.map((r) => row(r))
            )}
          </tbody>
          {state === "data" && pinned ? (
            <tbody className="gf-pinned">
              <tr className="gf-row--gap">
                <td colSpan={3}>
                  <span aria-hidden="true">…</span>
                  <span className="gf-sr-only">{props.pinnedLabel ?? "Your position"}</span>
                </td>
              </tr>
              {row(pinned, true)}
            </tbody>
          ) : null}
        </table>
      </TableScroll>
      {state === "error" ? null : <Pagination {...props} label={props.pagesLabel} />}
    </div>
  );
}
