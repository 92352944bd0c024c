import type { SettlementSummary } from "@game/db";
import { count } from "~/components/charts/labels";

/** The spec's upload alerts, word for word (section 8). */
export const UPLOAD_SUCCESS = "All racers successfully uploaded!";
export const UPLOAD_FAILURE = "Failed to upload racers. Check console for errors.";
export const NO_DATA = "No data to upload. Please select a valid CSV file.";

/**
 * The success alert when some rows were skipped: the spec's "All racers..." would not be true.
 * (docs/decisions/0081)
 */
export function uploadPartial(skipped: number): string {
  return `Racers uploaded, but ${skipped} ${skipped === 1 ? "row was" : "rows were"} skipped: see the list on the page.`;
}

/** The alert for a finished upload: the spec's text when every row went in. */
export function uploadDone(summary: { skipped: readonly unknown[] }): string {
  return summary.skipped.length === 0 ? UPLOAD_SUCCESS : uploadPartial(summary.skipped.length);
}

/** The results form's hint under its "Provisional results" box (decision 0171). */
export const PROVISIONAL_HINT =
  "While the race runs: points and ranks say provisional until the final results.";

/** What a results import did, in one sentence; always says whether the round is provisional. */
export function resultsImportMessage(outcome: {
  eventName: string;
  rows: number;
  /** The round's results are provisional after the import. */
  provisional: boolean;
  /** They were provisional before it. */
  wasProvisional: boolean;
  /** The file holds exactly the results stored: nothing written, nothing re-scored. */
  unchanged: boolean;
}): string {
  const { eventName, rows, provisional } = outcome;
  if (outcome.unchanged) {
    return `Unchanged: the file holds the results stored for ${eventName}; nothing re-scored. The results are ${provisional ? "still provisional" : "final"}.`;
  }
  const imported = `Imported ${count(rows)} ${provisional ? "provisional " : ""}results for ${eventName} and scored it.`;
  if (provisional) {
    return `${imported} The results are provisional: points and ranks say so until the final results.`;
  }
  return `${imported} ${outcome.wasProvisional ? "The results were provisional and are final now." : "The results are final."}`;
}

/** What "Make final" did (the words of `game-admin results finalize`). */
export function finalizeMessage(eventName: string, alreadyFinal: boolean): string {
  return alreadyFinal
    ? `The results of ${eventName} are final already: nothing to do.`
    : `The results of ${eventName} are final now.`;
}

const plural = (n: number, word: string) => `${count(n)} ${word}${n === 1 ? "" : "s"}`;

/** A settlement's summary line: what was scored and how long it took. */
export function settlementText(s: SettlementSummary): string {
  return `${plural(s.teams, "team")} scored, ${plural(s.rankedPlayers, "player")} ranked, ${plural(s.leagues, "league")} updated in ${(s.ms / 1000).toFixed(1)} s.${s.frozeNow ? " The teams were frozen now: the event had not reached its lock yet." : ""}`;
}
