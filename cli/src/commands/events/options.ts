/** What several events commands parse the same way. */
import type { EventStatus } from "@game/core";
import { InvalidArgumentError } from "commander";

/** An ISO 8601 time WITH its zone: "2027-04-18T16:00" alone would depend on this machine's zone. */
export function isoTime(value: string): Date {
  const text = value.trim();
  const at = new Date(text);
  if (
    !/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)$/i.test(text) ||
    Number.isNaN(at.getTime())
  ) {
    throw new InvalidArgumentError("give an ISO time with its zone, e.g. 2027-04-18T16:00:00Z.");
  }
  return at;
}

/** The words the help uses: "open", "close" or "closed", "archive" or "archived". */
const STATUS_WORDS: Readonly<Record<string, EventStatus>> = {
  open: "open",
  opened: "open",
  close: "closed",
  closed: "closed",
  archive: "archived",
  archived: "archived",
};

export function statusWord(value: string): EventStatus {
  const status = STATUS_WORDS[value.trim().toLowerCase()];
  if (!status) throw new InvalidArgumentError("use open, close (closed) or archive (archived).");
  return status;
}
