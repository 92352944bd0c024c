/**
 * How a player's team stands in a round, judged by its racers' entries there
 * (docs/decisions/0157). A team is a player's for the whole competition and holds racers as
 * people; each round has its own entries. The freeze, the reminders and the team page all ask
 * this one question; the freeze and the reminders restate it in SQL for speed, and a property
 * test in @game/db runs both against this function.
 */

/** A racer's entry in the round. */
export interface RoundEntry {
  /** Withdrawn after the entry was made: the racer does not start and scores nothing. */
  withdrawn: boolean;
}

export interface TeamInRound<Person = number> {
  /** The team's racers (people) without an entry in the round: they do not start here. */
  missing: Person[];
  /** The team's racers whose entry is withdrawn. */
  withdrawn: Person[];
  /**
   * The team plays the round (the freeze takes it): every racer has an entry. A withdrawn one
   * still has one: the team plays and that racer scores nothing.
   */
  plays: boolean;
}

/**
 * `people`: the team's racers as people (ids, or any value the caller keys its entries by);
 * `entries`: the round's entries by person.
 */
export function teamInRound<Person>(
  people: readonly Person[],
  entries: ReadonlyMap<Person, RoundEntry>,
): TeamInRound<Person> {
  const missing: Person[] = [];
  const withdrawn: Person[] = [];
  for (const person of people) {
    const entry = entries.get(person);
    if (!entry) missing.push(person);
    else if (entry.withdrawn) withdrawn.push(person);
  }
  return { missing, withdrawn, plays: missing.length === 0 };
}

/**
 * Why a player is reminded before a round locks: no team for the competition yet, or a team to
 * fix (a racer not starting or withdrawn); null when the team plays as it is.
 */
export type ReminderReason = "no-team" | "fix";

export function reminderReason(team: TeamInRound<unknown> | null): ReminderReason | null {
  if (!team) return "no-team";
  return team.missing.length > 0 || team.withdrawn.length > 0 ? "fix" : null;
}
