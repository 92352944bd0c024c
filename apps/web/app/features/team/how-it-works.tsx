import { BUDGET, LOCK_HOURS, MIN_FEMALE, MIN_JUNIOR, TEAM_SIZE } from "@game/core/constants";
import { formatPrice } from "@game/core/format";
import { POINTS } from "@game/core/scoring";

/** The three steps of the game, as the event home explains them. */
export function HowItWorks() {
  return (
    <section className="how-it-works card" aria-labelledby="how-heading">
      <h2 id="how-heading">How it works</h2>
      <ol className="how-it-works__steps">
        <li>
          <h3>Pick your team</h3>
          <p>
            Choose {TEAM_SIZE} real racers within your {formatPrice(BUDGET)} budget: at least{" "}
            {MIN_FEMALE} women and {MIN_JUNIOR} junior. Change them until teams lock {LOCK_HOURS}{" "}
            hours before the race.
          </p>
        </li>
        <li>
          <h3>Create a mini league</h3>
          <p>Start a league and invite your friends by e-mail to ride against you all season.</p>
        </li>
        <li>
          <h3>Win</h3>
          <p>
            Your racers score from their real results: {POINTS.first} points for a win,{" "}
            {POINTS.second} for second, {POINTS.third} for third, {POINTS.topTen} for the top ten
            and {POINTS.finisher} for finishing. Top the rankings and your league.
          </p>
        </li>
      </ol>
    </section>
  );
}
