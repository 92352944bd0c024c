/**
 * A short label for an event under a chart column: "Round 3" becomes "R3"; otherwise the most
 * telling word of the name (years and series words dropped), cut to 9 characters.
 */
export function shortEventLabel(name: string): string {
  const round = /\bRound\s+(\d+)/i.exec(name);
  if (round) return `R${round[1]}`;
  const generic = new Set([
    "world",
    "cup",
    "finals",
    "championships",
    "red",
    "bull",
    "series",
    "pro",
  ]);
  const words = name
    .split(/[\s:]+/)
    .filter((w) => w && !/^\d{4}$/.test(w) && !generic.has(w.toLowerCase()));
  const word = words.at(-1) ?? name;
  return word.length > 9 ? `${word.slice(0, 8)}…` : word;
}

const numbers = new Intl.NumberFormat("en-US");

/** 12345 -> "12,345". */
export function count(n: number): string {
  return numbers.format(n);
}

/** 1st, 2nd, 3rd: the one rule, in @game/core. */
export { ordinal } from "@game/core/format";

/** "up 3 places since the last event", or null without a previous rank. */
export function movementText(rank: number, previous: number | null | undefined): string | null {
  if (previous == null) return null;
  const delta = previous - rank;
  if (delta === 0) return "same place as before the last event";
  const n = Math.abs(delta);
  return `${delta > 0 ? "up" : "down"} ${numbers.format(n)} ${n === 1 ? "place" : "places"} since the last event`;
}
