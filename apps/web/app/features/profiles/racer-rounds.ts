/**
 * Which round a racer page is about. A racer has one entry (`racers` row) per round, each with
 * its own price and its own page (docs/decisions/0101); a page reached from an old team shows
 * that round's entry, so every price on it says its round, and the current round's entry is
 * named and linked when the page is another one (docs/decisions/0145).
 */
/** One of the racer's entries: the round, and the racer's price in it. */
export interface RoundEntry {
  /** The entry's id: its page is `/racers/{racerId}`. */
  racerId: number;
  eventId: number;
  /** The round's name ("Pro Downhill Series Round 1: Windrock"). */
  name: string;
  price: number;
  /** ISO 8601. */
  startsAt: string;
}

export interface RacerRounds {
  /** The entry this page is about. */
  entry: RoundEntry;
  /** The racer's entry in the current round, when the page is about another one. */
  current: RoundEntry | null;
  /** The page's entry is the current round's (its price is today's). */
  isCurrent: boolean;
  /**
   * Where the page's round stands against the current round: null when it is the current round
   * or when there is no current round to compare with.
   */
  relation: "earlier" | "later" | null;
  /** The current round's name, also when the racer has no entry in it. */
  currentRoundName: string | null;
}

/**
 * Places the page's entry among the racer's rounds. `currentGame` is the game the site is
 * showing (the open round, or the one the visitor chose); null when there are no events.
 */
export function racerRounds(
  entryId: number,
  rounds: readonly RoundEntry[],
  currentGame: { id: number; name: string; startsAt: string } | null,
): RacerRounds | null {
  const entry = rounds.find((r) => r.racerId === entryId);
  if (!entry) return null;
  const inCurrent = currentGame ? rounds.find((r) => r.eventId === currentGame.id) : undefined;
  const isCurrent = inCurrent?.racerId === entry.racerId;
  const relation =
    isCurrent || !currentGame
      ? null
      : Date.parse(entry.startsAt) < Date.parse(currentGame.startsAt)
        ? "earlier"
        : "later";
  return {
    entry,
    current: inCurrent && !isCurrent ? inCurrent : null,
    isCurrent,
    relation,
    currentRoundName: currentGame?.name ?? null,
  };
}
