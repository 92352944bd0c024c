/** Event helpers: pure, no React (also in `@game/widgets/helpers`). */
import type { EventStatus } from "./types.js";

/** The status badge's text per event status. */
export const EVENT_STATUS_LABELS: Record<EventStatus, string> = {
  open: "Open",
  closed: "Closed",
  archived: "Archived",
};
