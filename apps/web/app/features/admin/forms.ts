/**
 * The admin forms: one schema each, read by the action on every post (with or without
 * JavaScript). Rules that the CLI shares (partner origins, event status) are re-checked by the
 * @game/db services the action calls.
 */
import { EVENT_STATUSES } from "@game/core/events";
import { z } from "zod";
import { isTimeZone } from "./time";

const id = z.coerce
  .number({ error: "Missing id." })
  .int()
  .positive()
  .max(2 ** 31 - 1);

/**
 * Which competition an advance rolls (its slug), needed when several have an open round; empty
 * or absent: the one there is.
 */
const competitionSlug = z
  .string()
  .trim()
  .max(80)
  .optional()
  .transform((v) => v || undefined);

/** The form intent of the events page's season block (the page's other forms save one event). */
export const SEASON_ADVANCE_INTENT = "season-advance";

/**
 * "Advance season": a preview first (`confirm` absent or "no"), then a confirmation that names
 * the rounds the preview showed (`from`, `to`), so one click never advances and an advance is
 * exactly what the admin saw (docs/decisions/0140).
 */
export const seasonAdvanceFormSchema = z.discriminatedUnion("confirm", [
  z.object({
    confirm: z.literal("no"),
    force: z.literal("yes").optional(),
    competition: competitionSlug,
  }),
  z.object({
    confirm: z.literal("yes"),
    force: z.literal("yes").optional(),
    competition: competitionSlug,
    from: id,
    to: id,
  }),
]);

/** One form per event row: status and start time together, saved with one button. */
export const eventFormSchema = z.object({
  eventId: id,
  status: z.enum(EVENT_STATUSES, { error: "Choose open, closed or archived." }),
  startsAt: z
    .string({ error: "Give the start date and time." })
    .trim()
    .min(1, { error: "Give the start date and time.", abort: true })
    .regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?$/, "Give the start date and time."),
  // Filled by the page's script with the admin's zone; without JavaScript the times are UTC.
  timeZone: z
    .string()
    .optional()
    .transform((z) => z || "UTC")
    .refine(isTimeZone, "Unknown time zone."),
});

export const USER_INTENTS = ["accept", "block", "grant-admin", "revoke-admin"] as const;
export type UserIntent = (typeof USER_INTENTS)[number];

export const userFormSchema = z.object({
  intent: z.enum(USER_INTENTS, { error: "Unknown action." }),
  userId: id,
});

/** `?page=3` as a 1-based page number (anything else is page 1). */
export function pageFrom(url: URL): number {
  const n = Number(url.searchParams.get("page"));
  return Number.isSafeInteger(n) && n > 1 && n < 1_000_000 ? n : 1;
}
