/**
 * /hall-of-fame: the podium of every finished competition, latest first, each linking to the
 * competition's page and its final ranking. Public, read from the replica.
 */
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import chartStyles from "~/components/charts/charts.css?url";
import { competitionHref } from "~/features/competitions/competition-list";
import { disciplineAndSeason } from "~/features/competitions/competition-text";
import { GameBackdrop } from "~/features/game/game-backdrop";
import { SITE_NAME } from "~/features/layout/site";
import { PodiumTable } from "~/features/rankings/podium";
import {
  competitionRankingHref,
  LEAGUES_RANKING,
  PLAYERS_RANKING,
} from "~/features/rankings/ranking-links";
import { loadHallOfFame } from "~/features/rankings/rankings.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: chartStyles }];

export const meta: MetaFunction = () => [
  { title: `Hall of Fame · ${SITE_NAME}` },
  { name: "description", content: `The podium of every finished ${SITE_NAME} competition.` },
];

export function loader({ request, context }: LoaderFunctionArgs) {
  return loadHallOfFame(request, context);
}

export default function HallOfFame() {
  const { game, competitions } = useLoaderData<typeof loader>();
  return (
    <GameBackdrop
      game={game}
      title="Hall of Fame"
      subtitle="The podium of every finished competition"
    >
      <div className="hall-of-fame">
        {competitions.length === 0 ? (
          <section className="panel" aria-label="No podium yet">
            <p>
              No podium yet: a competition's podium comes here once it is over, its rounds scored.
            </p>
          </section>
        ) : (
          competitions.map((c) => (
            <section className="panel" key={c.slug} aria-labelledby={`hof-${c.slug}`}>
              <h2 id={`hof-${c.slug}`}>
                <Link to={competitionHref(c.slug)}>{c.name}</Link>
              </h2>
              <p className="muted">{disciplineAndSeason(c)}</p>
              <PodiumTable podium={c.podium} caption={`Podium of ${c.name}`} hideCaption />
              <p>
                <Link to={competitionRankingHref(c.slug)}>Final ranking of {c.name}</Link>
              </p>
            </section>
          ))
        )}
        <p className="panel">
          The competitions being played now: <Link to={PLAYERS_RANKING}>Player Ranking</Link> and{" "}
          <Link to={LEAGUES_RANKING}>Leagues Ranking</Link>.
        </p>
      </div>
    </GameBackdrop>
  );
}
