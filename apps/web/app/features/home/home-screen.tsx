import { BUDGET, TEAM_SIZE } from "@game/core/constants";
import { formatPrice } from "@game/core/format";
import { EventList } from "@game/widgets/event-list";
import { Link } from "@remix-run/react";
import { useEffect } from "react";
import { authPath } from "~/features/auth/auth-result";
import { isPlainClick, useLoginModal } from "~/features/auth/login-modal";
import { HomeCompetitions } from "~/features/competitions/competition-list";
import type {
  FinishedCompetition,
  HomeCompetition,
} from "~/features/competitions/competitions.server";
import { useTimeZone } from "~/utils/time-zone";
import type { HomeEvent } from "./home.server";
import { HOME_NOTICE_PARAM } from "./home-notices";

export interface HomeScreenProps {
  events: HomeEvent[];
  /** Live and upcoming competitions with their next round, and finished ones (`loadHome`). */
  competitions?: { current: HomeCompetition[]; finished: FinishedCompetition[] };
  /** `returning`: has played before (a team or points); a new player is greeted "Welcome". */
  user: { username: string; returning?: boolean } | null;
  /** Set on the unknown-path screen: says so above the usual home screen. */
  notFound?: boolean;
  /** A one-time notice from the page that sent the player here ("Game not found."). */
  notice?: string | null;
  /** The zone the server wrote the dates in (`loadHome`). */
  timeZone: string;
}

/**
 * The notice in an alert region (there from the first render, so a client-side arrival announces
 * it). Its code then leaves the address bar, so a reload or a shared link does not repeat it.
 */
function HomeNotice({ notice }: { notice: string | null }) {
  useEffect(() => {
    if (!notice) return;
    const url = new URL(window.location.href);
    if (!url.searchParams.has(HOME_NOTICE_PARAM)) return;
    url.searchParams.delete(HOME_NOTICE_PARAM);
    window.history.replaceState(window.history.state, "", url);
  }, [notice]);

  return (
    <div role="alert" className="home-notice">
      {notice ? <p className="notice">{notice}</p> : null}
    </div>
  );
}

/** The home screen: what the game is, and the event cards (only an open event can be entered). */
export function HomeScreen({
  events,
  competitions,
  user,
  notFound,
  notice,
  timeZone,
}: HomeScreenProps) {
  const login = useLoginModal();
  const openEvent = events.find((e) => e.status === "open");
  const openLabel =
    openEvent?.phase === "scored" ? "Results in" : openEvent?.phase === "locked" ? "Locked" : null;
  const zone = useTimeZone(timeZone);
  const signInTo = (id: number) => `/game/${id}`;

  return (
    <main className="home">
      <HomeNotice notice={notice ?? null} />
      {notFound ? (
        <div className="notice" role="status">
          <strong>We could not find that page.</strong> Here are the events instead.
        </div>
      ) : null}
      <section className="hero" aria-labelledby="home-title">
        <div className="hero-inner">
          {user ? (
            <p className="hero-greeting">
              {user.returning ? "Welcome back" : "Welcome"}, {user.username}!
            </p>
          ) : null}
          <h1 id="home-title">Fantasy downhill racing</h1>
          <p className="hero-lead">
            Pick {TEAM_SIZE} real downhill racers within a {formatPrice(BUDGET)} budget, score
            points from their real results and beat your friends in mini leagues. Free to play.
          </p>
          <div className="hero-actions">
            {user ? (
              openEvent ? (
                <Link to={`/game/${openEvent.id}`} className="button button--primary">
                  Enter {openEvent.name}
                </Link>
              ) : null
            ) : (
              <Link
                to={authPath("login", openEvent ? signInTo(openEvent.id) : null)}
                className="button button--primary"
                onClick={(event) => {
                  if (!isPlainClick(event)) return;
                  event.preventDefault();
                  login.open({ redirectTo: openEvent ? signInTo(openEvent.id) : null });
                }}
              >
                Sign In to Play
              </Link>
            )}
            <Link to="/about" className="button button--ghost">
              How it works
            </Link>
          </div>
        </div>
      </section>
      {competitions ? (
        <HomeCompetitions
          current={competitions.current}
          finished={competitions.finished}
          timeZone={zone}
        />
      ) : null}
      <section id="events" className="events" aria-labelledby="events-title" tabIndex={-1}>
        <h2 id="events-title">Events</h2>
        <EventList
          events={events}
          visitor={!user}
          eventHref={(e) => `/game/${e.id}`}
          signInHref={(e) => authPath("login", signInTo(e.id))}
          onSignIn={(e, domEvent) => {
            domEvent.preventDefault();
            login.open({ redirectTo: signInTo(e.id) });
          }}
          renderLink={({ href, ...rest }) => <Link to={href} {...rest} />}
          timeZone={zone}
          // An open event past its lock (or with results in early) says so, not "Open".
          statusLabels={openLabel ? { open: openLabel } : undefined}
          emptyMessage="No events yet. Check back soon."
        />
      </section>
    </main>
  );
}
