/**
 * /competitions/:slug: a competition's page: what it is, its podium once it is over, its rounds
 * (each linking to its event page), the top of its table (linking to the full ranking) and its
 * rules in words, from the same rules the team rule applies. An unknown slug shows the home
 * screen with status 404, as any unknown page does.
 */
import { PlayerRankings } from "@game/widgets/player-rankings";
import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { count } from "~/components/charts/labels";
import { RoundList, RulesList } from "~/features/competitions/competition-list";
import { disciplineAndSeason, STATE_LABELS } from "~/features/competitions/competition-text";
import { loadCompetitionPage } from "~/features/competitions/competitions.server";
import { GameBackdrop } from "~/features/game/game-backdrop";
import { loadHome } from "~/features/home/home.server";
import { HomeScreen } from "~/features/home/home-screen";
import { PodiumTable } from "~/features/rankings/podium";
import { competitionRankingHref, HALL_OF_FAME } from "~/features/rankings/ranking-links";

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data && "competition" in data
    ? [
        { title: `${data.competition.name} · Gravity Fantasy` },
        {
          name: "description",
          content:
            data.competition.description ||
            `${data.competition.name}: its rounds and its rules on Gravity Fantasy.`,
        },
      ]
    : [{ title: "Page not found · Gravity Fantasy" }, { name: "robots", content: "noindex" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const page = await loadCompetitionPage(request, context, params.slug ?? "");
  if (!page) return data({ notFound: await loadHome(request, context) }, { status: 404 });
  return page;
}

export default function CompetitionPage() {
  const loaded = useLoaderData<typeof loader>();
  if ("notFound" in loaded) {
    const { events, competitions, user, timeZone } = loaded.notFound;
    return (
      <HomeScreen
        events={events}
        competitions={competitions}
        user={user}
        timeZone={timeZone}
        notFound
      />
    );
  }
  return <Competition {...loaded} />;
}

function Competition({
  competition: c,
  standings,
  podium,
  timeZone,
}: Exclude<ReturnType<typeof useLoaderData<typeof loader>>, { notFound: unknown }>) {
  const fullRanking = competitionRankingHref(c.slug);
  return (
    <GameBackdrop
      game={{ id: c.id, name: c.name, cover: c.cover, logo: c.logo }}
      title={c.name}
      subtitle={
        <>
          {disciplineAndSeason(c)}{" "}
          <span className="competition-state" data-state={c.state}>
            {STATE_LABELS[c.state]}
          </span>
        </>
      }
    >
      <div className="competition-page">
        {c.description ? (
          <section className="panel" aria-label="About this competition">
            <p className="competition-description">{c.description}</p>
          </section>
        ) : null}
        {podium && podium.length > 0 ? (
          <section className="panel" aria-labelledby="podium-title">
            <h2 id="podium-title">Podium</h2>
            <PodiumTable podium={podium} caption={`Final podium of ${c.name}`} hideCaption />
            <p className="muted">
              Every finished competition's podium: <Link to={HALL_OF_FAME}>Hall of Fame</Link>.
            </p>
          </section>
        ) : null}
        <section className="panel" aria-labelledby="rounds-title">
          <h2 id="rounds-title">Rounds</h2>
          <RoundList rounds={c.rounds} timeZone={timeZone} />
        </section>
        <section className="panel" aria-labelledby="standings-title">
          <h2 id="standings-title">Standings</h2>
          {standings.total === 0 ? (
            <p>
              No round of this competition has been scored yet: its table starts with the first
              results.
            </p>
          ) : (
            <>
              <PlayerRankings
                rows={standings.rows}
                renderLink={({ href, ...rest }) => <Link to={href} {...rest} />}
                playerHref={(p) => `/players/${encodeURIComponent(p.username ?? "")}`}
                caption={`${c.name}: the top ${count(standings.rows.length)} of ${count(standings.total)} players`}
                hideCaption
              />
              <p>
                <Link to={fullRanking}>Full ranking of {c.name}</Link>{" "}
                <span className="muted">({count(standings.total)} players)</span>
              </p>
            </>
          )}
        </section>
        <section className="panel" aria-labelledby="rules-title">
          <h2 id="rules-title">Rules</h2>
          <RulesList lines={c.rulesText} />
          <p className="muted">
            How points, prices and the lock work in detail: <Link to="/about">How it works</Link>.
          </p>
        </section>
        <p>
          <Link to="/#competitions">All competitions</Link>
        </p>
      </div>
    </GameBackdrop>
  );
}
