/**
 * /competitions/:slug: a competition's page: what it is, its rounds (each linking to its event
 * page) and its rules in words, from the same rules the team rule applies. An unknown slug shows
 * the home screen with status 404, as any unknown page does.
 */
import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { RoundList, RulesList } from "~/features/competitions/competition-list";
import { disciplineAndSeason, STATE_LABELS } from "~/features/competitions/competition-text";
import { loadCompetitionPage } from "~/features/competitions/competitions.server";
import { GameBackdrop } from "~/features/game/game-backdrop";
import { loadHome } from "~/features/home/home.server";
import { HomeScreen } from "~/features/home/home-screen";

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
  timeZone,
}: Exclude<ReturnType<typeof useLoaderData<typeof loader>>, { notFound: unknown }>) {
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
        <section className="panel" aria-labelledby="rounds-title">
          <h2 id="rounds-title">Rounds</h2>
          <RoundList rounds={c.rounds} timeZone={timeZone} />
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
