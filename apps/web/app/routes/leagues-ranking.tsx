import { LeagueRankings } from "@game/widgets/league-rankings";
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import chartStyles from "~/components/charts/charts.css?url";
import { count, ordinal } from "~/components/charts/labels";
import { GameBackdrop } from "~/features/game/game-backdrop";
import { LiveNotice } from "~/features/live/live-notice";
import { useLiveRound } from "~/features/live/use-live-round";
import { CompetitionPicker, HallOfFameLink } from "~/features/rankings/competition-picker";
import { rankingQuery } from "~/features/rankings/ranking-links";
import { loadLeaguesRanking } from "~/features/rankings/rankings.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: chartStyles }];

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title: `Leagues Ranking${data?.competition ? `: ${data.competition.name}` : ""} · Gravity Fantasy`,
  },
];

export function loader({ request, context }: LoaderFunctionArgs) {
  return loadLeaguesRanking(request, context);
}

const points = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });

export default function LeaguesRanking() {
  const data = useLoaderData<typeof loader>();
  // Every link keeps the competition shown (when it is not the default one).
  const pageHref = (p: number) => rankingQuery({ competition: data.competitionParam, page: p });
  useLiveRound(data.live);
  return (
    <GameBackdrop
      game={data.game}
      title={data.competition ? `Leagues Ranking: ${data.competition.name}` : "Leagues Ranking"}
    >
      <CompetitionPicker
        competitions={data.competitions}
        current={data.competition?.slug ?? null}
        id="leagues-competition"
      />
      <div className="panel">
        <LiveNotice live={data.live} provisional={data.scoresProvisional} />
        {data.myLeagues.length > 0 ? (
          <section aria-labelledby="my-leagues" className="standing">
            <h2 id="my-leagues" className="visually-hidden">
              Your leagues
            </h2>
            <ul className="team-list league-standings">
              {data.myLeagues.map((l) => (
                <li key={l.id}>
                  <span>
                    <strong>{l.name}</strong>{" "}
                    {l.needsMembers
                      ? "joins the ranking once a second player joins it"
                      : l.rank
                        ? `is ${ordinal(l.rank)} of ${count(data.total)}${l.provisional ? " for now: new leagues get their place when the next results are scored" : ""}`
                        : "gets its place when the next results are scored"}
                  </span>
                  <span>
                    {points.format(l.totalPoints)} points
                    {l.page && l.page !== data.page ? (
                      <>
                        {" · "}
                        <Link to={pageHref(l.page)} aria-label={`Show ${l.name} in the ranking`}>
                          Show
                        </Link>
                      </>
                    ) : null}
                  </span>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        <LeagueRankings
          rows={data.rows}
          highlightIds={data.myLeagues.map((l) => l.id)}
          page={data.page}
          pageCount={data.pageCount}
          pageHref={pageHref}
          renderLink={({ href, ...rest }) => <Link to={href} {...rest} />}
          caption={`League rankings, page ${data.page} of ${data.pageCount}`}
          hideCaption
          emptyMessage="No leagues yet: create one from your event page and invite your friends."
        />
        <p className="muted">
          A league's total is the average season score of its members. Places are updated when an
          event's results are scored; equal totals are listed oldest league first. A league plays
          one competition: its table is that competition's.
        </p>
        <HallOfFameLink />
      </div>
    </GameBackdrop>
  );
}
