/**
 * How a competition and its rounds are put in words on the pages (home, competition page,
 * dashboard): discipline and state names, a round's standing, and a countdown in words. Pure
 * functions, used on the server and in the browser alike.
 */
import type { CompetitionState } from "@game/core/competitions";
import type { EventPhase } from "@game/core/events";
import type { Discipline } from "@game/core/rules";

export const DISCIPLINE_LABELS: Record<Discipline, string> = {
  downhill: "Downhill",
  "cross-country": "Cross-country",
  enduro: "Enduro",
  freeride: "Freeride",
  other: "Other",
};

export const STATE_LABELS: Record<CompetitionState, string> = {
  upcoming: "Upcoming",
  live: "Live",
  finished: "Finished",
  archived: "Archived",
};

/** A round's standing for players (core's `eventPhase`). */
export const PHASE_LABELS: Record<EventPhase, string> = {
  upcoming: "Coming up",
  open: "Open",
  locked: "Locked",
  scored: "Results in",
  archived: "Finished",
};

/** "Downhill, 2027": the discipline and the season label, when there is one. */
export function disciplineAndSeason(c: { discipline: Discipline; season: string }): string {
  return c.season
    ? `${DISCIPLINE_LABELS[c.discipline]}, ${c.season}`
    : DISCIPLINE_LABELS[c.discipline];
}

const plural = (n: number, one: string) => `${n} ${n === 1 ? one : `${one}s`}`;

/**
 * A span of time in words, rounded down to its largest unit: "3 days", "5 hours", "1 minute",
 * "about 4 months" past 60 days, "less than a minute" below one.
 */
export function durationInWords(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return "less than a minute";
  if (minutes < 60) return plural(minutes, "minute");
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return plural(hours, "hour");
  const days = Math.floor(hours / 24);
  if (days < 60) return plural(days, "day");
  return `about ${plural(Math.round(days / 30.44), "month")}`;
}

/** What a round needs to say when it is the next one of its competition. */
export interface NextRoundTimes {
  status: "open" | "closed" | "archived";
  startsAt: string | Date;
  lockAt: string | Date;
  settled: boolean;
}

/**
 * The countdown to a competition's next round, in words: to the lock while teams can still be
 * picked (or before the round opens), to the start once teams are locked, then what comes next.
 */
export function nextRoundCountdown(round: NextRoundTimes, now: Date | number): string {
  const t = typeof now === "number" ? now : now.getTime();
  const lock = new Date(round.lockAt).getTime();
  const start = new Date(round.startsAt).getTime();
  if (round.settled) return "Results are in.";
  if (t < lock) {
    return round.status === "open"
      ? `Teams lock in ${durationInWords(lock - t)}.`
      : `Opens for teams soon; teams lock in ${durationInWords(lock - t)}.`;
  }
  if (t < start) return `Teams are locked; the race starts in ${durationInWords(start - t)}.`;
  return "Racing now; results to come.";
}
