import { TeamGrid } from "@game/widgets";
import widgetStyles from "@game/widgets/styles.css?url";
import {
  data,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { LeaguesPanel } from "~/components/leagues/leagues-panel";
import { loadLeaguesPanel } from "~/components/leagues/leagues-panel.server";
import { loadEventHome } from "~/components/team/event-home.server";
import { HowItWorks } from "~/components/team/how-it-works";
import { LockNotice } from "~/components/team/lock-notice";
import { PlayerGreeting } from "~/components/team/player-greeting";
import { SeasonChanges } from "~/components/team/season-changes";
import teamStyles from "~/components/team/team.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: widgetStyles },
  { rel: "stylesheet", href: teamStyles },
];

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.event.name} | Gravity Fantasy` : "Gravity Fantasy" },
  ...(data ? [{ name: "description", content: data.event.description }] : []),
];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { home, user, headers } = await loadEventHome(request, context, params.id);
  // Blocks of other features (the player's leagues) add their data here, beside `home`.
  const leagues = await loadLeaguesPanel(request, context, user, { hasTeam: home.hasTeam });
  return data({ ...home, leagues }, { headers });
}

export default function EventHome() {
  const home = useLoaderData<typeof loader>();
  const { event, player } = home;
  const setupHref = `/team-setup?game=${event.id}`;
  const loginHref = `/?login=1&redirectTo=${encodeURIComponent(`/game/${event.id}`)}`;

  return (
    <main className="page event-home">
      <header
        className="event-home__hero"
        style={{ backgroundImage: `url(${JSON.stringify(event.cover)})` }}
      >
        <img src={event.logo} alt="" className="event-home__logo" width={72} height={72} />
        <div>
          <p className="event-home__series">{event.series}</p>
          <h1>{event.name}</h1>
          <p className="event-home__meta">
            {event.location}
            {event.location ? " · " : ""}
            Race day{" "}
            <time dateTime={event.startsAt}>
              {new Date(event.startsAt).toLocaleDateString("en-US", {
                day: "numeric",
                month: "long",
                year: "numeric",
                timeZone: "UTC",
              })}
            </time>
          </p>
        </div>
      </header>

      <div className="event-home__grid">
        {player ? (
          <PlayerGreeting {...player} />
        ) : (
          <section className="greeting card" aria-labelledby="greeting-heading">
            <h2 id="greeting-heading">Sign in to play</h2>
            <p>Pick six riders, join a mini league with your friends and chase the top spot.</p>
            <Link className="button button--primary" to={loginHref}>
              Sign In to Play
            </Link>
          </section>
        )}

        <LockNotice lockAt={event.lockAt} now={home.now} className="card" />

        <section className="event-home__team card" aria-labelledby="team-heading">
          <h2 id="team-heading">Your team</h2>
          {player ? (
            <>
              <TeamGrid
                racers={home.team}
                readOnly
                budget={home.budget}
                emptyMessage="You have not picked any riders yet."
              />
              {home.season ? <SeasonChanges season={home.season} /> : null}
              <Link className="button button--primary" to={setupHref}>
                {home.hasTeam ? "Edit Your Team" : "Create Your Team"}
              </Link>
            </>
          ) : (
            <p>
              <Link to={loginHref}>Sign in</Link> to pick your six riders for this event.
            </p>
          )}
        </section>

        <HowItWorks />

        <LeaguesPanel data={home.leagues} game={event.id} className="card event-home__leagues" />
      </div>
    </main>
  );
}
