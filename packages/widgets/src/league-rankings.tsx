import { type ReactElement, type ReactNode, useId } from "react";
import { formatPoints } from "./format.js";
import {
  cx,
  defaultRenderLink,
  rootProps,
  StateMessage,
  TableScroll,
  viewState,
  type WidgetBaseProps,
} from "./internal/common.js";
import { Pagination, type PagingProps } from "./internal/pagination.js";
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
  const { rows, highlightIds = [], leagueHref, hideCaption } = props;
  const renderLink = props.renderLink ?? defaultRenderLink;
  const id = useId();
  const state = viewState(props, rows.length === 0);
  const highlighted = new Set(highlightIds.map(String));

  return (
    <div {...rootProps("gf-rankings gf-league-rankings", props)}>
      <TableScroll labelledBy={`${id}-caption`}>
        <table className="gf-table" aria-busy={state === "loading" || undefined}>
          <caption id={`${id}-caption`} className={cx("gf-caption", hideCaption && "gf-sr-only")}>
            {props.caption ?? "League rankings"}
          </caption>
          <thead>
            <tr>
              <th scope="col" className="gf-col-rank">
                Rank
              </th>
              <th scope="col">League Name</th>
              <th scope="col" className="gf-num">
                Total Points
              </th>
            </tr>
          </thead>
          <tbody>
            {state !== "data" ? (
              <tr>
                <td colSpan={3}>
                  <StateMessage state={state} base={props} defaultEmpty="No leagues yet." />
                </td>
              </tr>
            ) : (
              rows.map((league, i) => {
                const mine = league.id != null && highlighted.has(String(league.id));
                return (
                  <tr key={league.id ?? `${league.rank}-${i}`} className={cx(mine && "gf-row--me")}>
                    <td className="gf-col-rank">{league.rank}</td>
                    <th scope="row" className="gf-col-name">
                      {leagueHref
                        ? renderLink({
                            href: leagueHref(league),
                            className: "gf-link",
                            children: league.name,
                          })
                        : league.name}
                      {mine ? (
                        <span className="gf-badge gf-badge--me">
                          <span className="gf-sr-only">, </span>Your league
                        </span>
                      ) : null}
                    </th>
                    <td className="gf-num">{formatPoints(league.totalPoints)}</td>
                  </tr>
                );
              })
            )}
          </tbody>
        </table>
      </TableScroll>
      {state === "error" ? null : <Pagination {...props} label="League rankings pages" />}
    </div>
  );
}
