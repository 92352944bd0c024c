import { Link } from "@remix-run/react";
import type { RacerRounds } from "./racer-rounds";

/**
 * Says when the page is about another round than the current one, and links to the racer's
 * entry in the current round when there is one.
 */
export function RoundNotice({ name, rounds }: { name: string; rounds: RacerRounds }) {
  const { entry, current, relation, currentRoundName } = rounds;
  if (!relation || (!current && relation === "later")) return null;
  const which = relation === "earlier" ? "an earlier round" : "a later round";
  return (
    <p className="notice round-notice">
      This page shows {name} in <strong>{entry.name}</strong>, {which}
      {current ? (
        <>
          . <Link to={`/racers/${current.racerId}`}>See {name} in the current round</Link> (
          {current.name}).
        </>
      ) : (
        `; ${name} is not entered in the current round, ${currentRoundName}.`
      )}
    </p>
  );
}
