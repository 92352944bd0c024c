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
