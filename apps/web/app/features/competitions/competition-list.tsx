/**
 * The competitions on the home page (live and upcoming with their next round, finished ones
 * below), and the parts of a competition's page: its rounds and its rules in words.
 */
import { Link } from "@remix-run/react";
import { DateTime } from "~/components/date-time";
import { HALL_OF_FAME } from "~/features/rankings/ranking-links";
import { disciplineAndSeason, PHASE_LABELS, STATE_LABELS } from "./competition-text";
import type {
  CompetitionRoundItem,
  FinishedCompetition,
  HomeCompetition,
} from "./competitions.server";

export const competitionHref = (slug: string) => `/competitions/${slug}`;

/** The home page's competitions section (`/#competitions`). */
export function HomeCompetitions({
  current,
  finished,
  timeZone,
}: {
  current: HomeCompetition[];
  finished: FinishedCompetition[];
  /** The zone the server wrote the page in. */
  timeZone: string;
}) {
  return (
    <section
      id="competitions"
      className="competitions"
      aria-labelledby="competitions-title"
      tabIndex={-1}
    >
      <h2 id="competitions-title">Competitions</h2>
      {current.length === 0 ? (
        <p>No competition is running right now. Check back soon.</p>
      ) : (
        <ul className="competition-cards" aria-label="Live and upcoming competitions">
          {current.map((c) => (
            <li key={c.slug} className="card competition-card">
              <div className="competition-card__head">
                <img
                  src={c.logo}
                  alt=""
                  width="48"
                  height="48"
                  className="competition-card__logo"
                />
                <div>
                  <h3>
                    <Link to={competitionHref(c.slug)}>{c.name}</Link>
                  </h3>
                  <p className="muted">
                    {disciplineAndSeason(c)}{" "}
                    <span className="competition-state" data-state={c.state}>
                      {STATE_LABELS[c.state]}
                    </span>
                  </p>
                </div>
              </div>
              {c.next ? (
                <div className="competition-card__next">
                  <p>
                    Next round: <Link to={`/game/${c.next.id}`}>{c.next.name}</Link>{" "}
                    <span className="muted">({PHASE_LABELS[c.next.phase]})</span>
                  </p>
                  <p>
                    Starts <DateTime value={c.next.startsAt} timeZone={timeZone} />.
                  </p>
                  <p className="competition-card__countdown">{c.next.countdown}</p>
                </div>
              ) : (
                <p>Its rounds are still to be announced.</p>
              )}
            </li>
          ))}
        </ul>
      )}
      {finished.length > 0 ? (
        <>
          <h3 id="finished-competitions">Finished</h3>
          <ul className="competition-finished" aria-labelledby="finished-competitions">
            {finished.map((c) => (
              <li key={c.slug}>
                <Link to={competitionHref(c.slug)}>{c.name}</Link>{" "}
                <span className="muted">({disciplineAndSeason(c)})</span>
              </li>
            ))}
          </ul>
          <p>
            Their podiums: the <Link to={HALL_OF_FAME}>Hall of Fame</Link>.
          </p>
        </>
      ) : null}
    </section>
  );
}

/** A competition's rounds, in order, each linking to its event page. */
export function RoundList({
  rounds,
  timeZone,
}: {
  rounds: CompetitionRoundItem[];
  timeZone: string;
}) {
  if (rounds.length === 0) return <p>Its rounds are still to be announced.</p>;
  return (
    <ol className="competition-rounds">
      {rounds.map((r) => (
        <li key={r.id} className="competition-round">
          <h3>
            {r.round !== null ? <span className="muted">Round {r.round}: </span> : null}
            <Link to={`/game/${r.id}`}>{r.name}</Link>{" "}
            <span className="competition-state" data-state={r.phase}>
              {PHASE_LABELS[r.phase]}
            </span>
          </h3>
          {r.location ? <p className="muted">{r.location}</p> : null}
          <p>
            Starts <DateTime value={r.startsAt} timeZone={timeZone} />
            {r.phase === "open" || r.phase === "upcoming" ? (
              <>
                ; teams lock <DateTime value={r.lockAt} timeZone={timeZone} />
              </>
            ) : null}
            .
          </p>
        </li>
      ))}
    </ol>
  );
}

/** The rules in words, one line each. */
export function RulesList({ lines }: { lines: string[] }) {
  return (
    <ul className="competition-rules">
      {lines.map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
}
