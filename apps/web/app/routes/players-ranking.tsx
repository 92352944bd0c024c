import { PlayerRankings } from "@game/widgets/player-rankings";
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import chartStyles from "~/components/charts/charts.css?url";
import { count, movementText, ordinal } from "~/components/charts/labels";
import { GameBackdrop } from "~/features/game/game-backdrop";
import { LiveNotice } from "~/features/live/live-notice";
import { useLiveRound } from "~/features/live/use-live-round";
import { CompetitionPicker, HallOfFameLink } from "~/features/rankings/competition-picker";
import { rankingQuery } from "~/features/rankings/ranking-links";
import { loadPlayersRanking } from "~/features/rankings/rankings.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: chartStyles }];

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title: `Player Rankings${data?.competition ? `: ${data.competition.name}` : ""}${data?.view.eventName ? `, ${data.view.eventName}` : ""} · Gravity Fantasy`,
  },
];

export function loader({ request, context }: LoaderFunctionArgs) {
  return loadPlayersRanking(request, context);
}

export default function PlayersRanking() {
  const data = useLoaderData<typeof loader>();
  const { view, viewer } = data;
  // Every link keeps the competition shown (when it is not the default one).
  const competition = data.competitionParam;
  const pageHref = (p: number) => rankingQuery({ competition, event: view.eventId, page: p });
  const mine = viewer?.standing ?? null;
  const where = view.eventName ?? "the season";
  useLiveRound(data.live);

  return (
    <GameBackdrop
      game={data.game}
      title={data.competition ? `Player Rankings: ${data.competition.name}` : "Player Rankings"}
      subtitle={view.eventName ?? "Season"}
    >
      <CompetitionPicker
        competitions={data.competitions}
        current={data.competition?.slug ?? null}
        id="players-competition"
      />
      <nav className="ranking-views" aria-label="Ranking views">
        <ul>
          <li>
            <Link
              to={rankingQuery({ competition })}
              aria-current={view.eventId === null ? "page" : undefined}
            >
              Season
            </Link>
          </li>
          {data.views.map((e) => (
            <li key={e.id}>
              <Link
                to={rankingQuery({ competition, event: e.id })}
                aria-current={view.eventId === e.id ? "page" : undefined}
              >
                {e.name}
                {e.provisional ? " (provisional)" : ""}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className="panel">
        <LiveNotice live={data.live} provisional={view.provisional} />
        {viewer ? (
          mine ? (
            <p className="standing">
              <strong>
                You are {ordinal(mine.rank)} of {count(data.total)} in {where}
              </strong>
              <span>{count(mine.points)} points</span>
              {view.eventId === null && movementText(mine.rank, mine.previousRank) ? (
                <span>{movementText(mine.rank, mine.previousRank)}</span>
              ) : null}
              {mine.page !== data.page ? <Link to={pageHref(mine.page)}>Show my page</Link> : null}
              <Link to={`/players/${encodeURIComponent(viewer.username)}`}>My scores by event</Link>
            </p>
          ) : (
            <p className="standing">
              <strong>You are not ranked {view.eventId === null ? "yet" : "in this event"}</strong>
              <span>Players enter the ranking when an event their team raced in is scored.</span>
            </p>
          )
        ) : null}
        <PlayerRankings
          rows={data.rows}
          me={mine}
          page={data.page}
          pageCount={data.pageCount}
          pageHref={pageHref}
          renderLink={({ href, ...rest }) => <Link to={href} {...rest} />}
          playerHref={(p) => `/players/${encodeURIComponent(p.username ?? "")}`}
          showMovement={view.eventId === null}
          caption={`Player rankings: ${where}, page ${data.page} of ${data.pageCount}`}
          hideCaption
          emptyMessage={
            view.eventId !== null && !view.scored
              ? `${view.eventName} has not been scored yet: points appear when its results are in.`
              : "No scores yet: the ranking starts when the first race's results are in."
          }
        />
        <p className="muted">
          Equal points share a rank; players on equal points are listed by username.
          {view.eventId === null
            ? " Arrows show the move since the last scored event."
            : " Points are the team's score in this event only."}
        </p>
        {view.eventId === null ? (
          <p className="muted" data-testid="scored-rounds">
            {data.views.length === 0
              ? `No round of ${data.competition?.name ?? "the competition"} has been scored yet.`
              : `Scored rounds (${data.views.length}): ${data.views.map((v) => v.name).join(", ")}. Season points are the sum over these rounds.`}
          </p>
        ) : null}
        <HallOfFameLink />
      </div>
    </GameBackdrop>
  );
}
