import widgetStyles from "@game/widgets/styles.css?url";
import {
  data,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { DateTime } from "~/components/date-time";
import { LeaguesPanel } from "~/features/leagues/leagues-panel";
import { loadLeaguesPanel } from "~/features/leagues/leagues-panel.server";
import { LiveNotice } from "~/features/live/live-notice";
import { useLiveRound } from "~/features/live/use-live-round";
import { loadEventHome } from "~/features/team/event-home.server";
import { EventTeam } from "~/features/team/event-team";
import { HowItWorks } from "~/features/team/how-it-works";
import { LockNotice } from "~/features/team/lock-notice";
import { PlayerGreeting } from "~/features/team/player-greeting";
import { SeasonChangesPart } from "~/features/team/season-changes-part";
import teamStyles from "~/features/team/team.css?url";

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
  // Blocks of other features (the player's leagues) add their data here, beside `home`; a
  // closed or archived event's page has none.
  const leagues =
    home.phase === "upcoming" || home.phase === "archived"
      ? null
      : await loadLeaguesPanel(request, context, user, { hasTeam: home.hasTeam });
  return data({ ...home, leagues }, { headers });
}

const points = (n: number) => `${new Intl.NumberFormat("en-US").format(n)} pts`;

export default function EventHome() {
  const home = useLoaderData<typeof loader>();
  const { event, player } = home;
  const setupHref = `/team-setup?game=${event.id}`;
  const loginHref = `/?login=1&redirectTo=${encodeURIComponent(`/game/${event.id}`)}`;
  // Race day: the riders' runs, points and the leagues move as results come in (decision 0171).
  useLiveRound(home.live);

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
            Race day <DateTime value={event.startsAt} timeZone={home.timeZone} />
          </p>
        </div>
      </header>

      {home.phase === "upcoming" || home.phase === "archived" ? (
        <section className="card event-home__closed" aria-labelledby="closed-heading">
          {home.phase === "upcoming" ? (
            <>
              <h2 id="closed-heading">This event is not open yet</h2>
              <p>
                Race day is <DateTime value={event.startsAt} timeZone={home.timeZone} />. Teams can
                be picked once it opens, until 12 hours before the start.
              </p>
            </>
          ) : (
            <>
              <h2 id="closed-heading">This event is over</h2>
              <p>
                It was raced on <DateTime value={event.startsAt} timeZone={home.timeZone} />. Teams
                and points are on the players' pages.
              </p>
            </>
          )}
          <p>
            <Link className="button button--primary" to="/#events">
              See the events
            </Link>
          </p>
        </section>
      ) : (
        <div className="event-home__grid">
          {player ? (
            <PlayerGreeting {...player} provisional={home.provisional} />
          ) : (
            <section className="greeting card" aria-labelledby="greeting-heading">
              <h2 id="greeting-heading">Sign in to play</h2>
              <p>Pick six riders, join a mini league with your friends and chase the top spot.</p>
              <Link className="button button--primary" to={loginHref}>
                Sign In to Play
              </Link>
            </section>
          )}

          {home.phase === "open" ? (
            <LockNotice
              lockAt={event.lockAt}
              lockHours={event.lockHours}
              now={home.now}
              timeZone={home.timeZone}
              className="card"
            />
          ) : (
            <section className="lock-notice card" aria-labelledby="lock-heading">
              <h2 id="lock-heading" className="lock-notice__title">
                Teams are locked
              </h2>
              <p>
                {home.provisional
                  ? "Results are coming in: teams are final and scored as the riders come down."
                  : home.phase === "scored"
                    ? "The results are in: teams are final and scored."
                    : "Teams are final: they score from this event's results."}
              </p>
              <LiveNotice live={home.live} provisional={home.provisional} />
            </section>
          )}

          <section className="event-home__team card" aria-labelledby="team-heading">
            <h2 id="team-heading">Your team</h2>
            {player ? (
              <>
                {home.score ? (
                  <p className="event-home__score">
                    <strong>{points(home.score.points)}</strong>
                    {home.score.rank ? ` · rank ${home.score.rank} in this event` : null}
                    {home.provisional ? " · provisional" : null}
                  </p>
                ) : null}
                <EventTeam home={home} />
                {home.season ? <SeasonChangesPart season={home.season} /> : null}
                {home.phase === "open" ? (
                  <Link className="button button--primary" to={setupHref}>
                    {home.hasTeam ? "Edit Your Team" : "Create Your Team"}
                  </Link>
                ) : null}
              </>
            ) : (
              <p>
                {home.phase === "open" ? (
                  <>
                    <Link to={loginHref}>Sign in</Link> to pick your six riders for this event.
                  </>
                ) : (
                  <>
                    <Link to={loginHref}>Sign in</Link> to see your team for this event.
                  </>
                )}
              </p>
            )}
          </section>

          <HowItWorks />

          {home.leagues ? (
            <LeaguesPanel
              data={home.leagues}
              game={event.id}
              className="card event-home__leagues"
            />
          ) : null}
        </div>
      )}
    </main>
  );
}
