import type { TransferRound } from "@game/core/team";
import type { TransferStatus } from "@game/db";
import { count } from "~/components/charts/labels";

/**
 * What the draft's changes cost this round (docs/decisions/0170), said before the save, and the
 * wildcard box where the competition has one and it was not played in an earlier round.
 */
export function TransferLine({
  account,
  round,
  eventId,
  wildcard,
  onWildcard,
}: {
  account: TransferStatus;
  round: TransferRound;
  eventId: number;
  wildcard: boolean;
  /** Absent when the team cannot change (locked). */
  onWildcard?: (on: boolean) => void;
}) {
  const played = account.wildcard.eventId !== null && account.wildcard.eventId !== eventId;
  const line =
    round.available === null
      ? "Your first round: your picks are free."
      : wildcard
        ? `Wildcard: your ${round.changes} ${round.changes === 1 ? "change is" : "changes are"} free this round.`
        : `Transfers: ${round.changes} of ${round.available} free${
            round.extra > 0
              ? `; ${round.extra} extra ${round.extra === 1 ? "costs" : "cost"} ${count(round.cost)} points this round.`
              : "."
          }`;
  return (
    <div className="team-transfers">
      <p
        className={round.extra > 0 ? "team-transfers__line negative" : "team-transfers__line"}
        aria-live="polite"
      >
        {line}
      </p>
      {account.wildcard.offered && round.available !== null ? (
        played ? (
          <p className="hint">Wildcard played in {account.wildcard.eventName}.</p>
        ) : (
          <p className="team-transfers__wildcard">
            <input type="hidden" name="wildcardShown" value="1" />
            <input
              type="checkbox"
              id="wildcard"
              name="wildcard"
              value="on"
              checked={wildcard}
              disabled={!onWildcard}
              onChange={(event) => onWildcard?.(event.currentTarget.checked)}
            />{" "}
            <label htmlFor="wildcard">
              Play my wildcard this round: all changes free (once per competition)
            </label>
          </p>
        )
      ) : null}
    </div>
  );
}
