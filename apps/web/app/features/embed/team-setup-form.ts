/**
 * The iframe team builder's posts, read by one schema on both sides. The iframe has no cookie
 * (browsers block them in third-party frames): its credential travels in the form, as `token`
 * (the popup's single-use handoff, for `exchange`) or `session` (what the exchange returned).
 */
import { teamSelectionSchema } from "@game/core/schemas";
import type { HeldRacer } from "@game/core/selling-price";
import { z } from "zod";

const token = z
  .string({ error: "Please sign in again." })
  .regex(/^[A-Za-z0-9_-]{20,200}$/, "Please sign in again.");

export const embedActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("exchange"), token }),
  z.object({
    intent: z.literal("save"),
    session: token,
    racer: teamSelectionSchema,
    // The captain (docs/decisions/0168), a racer id of the team; absent: none.
    captain: z.coerce
      .number()
      .int()
      .positive()
      .max(2 ** 31 - 1)
      .optional(),
  }),
  z.object({ intent: z.literal("signout"), session: token }),
]);
export type EmbedAction = z.infer<typeof embedActionSchema>;

/** Reads a posted form (racer ids repeat, one per value). */
export function readEmbedAction(form: FormData) {
  return embedActionSchema.safeParse({
    intent: form.get("intent"),
    token: form.get("token") ?? undefined,
    session: form.get("session") ?? undefined,
    racer: form.getAll("racer"),
    captain: form.get("captain") || undefined,
  });
}

/** A signed-in player, as the iframe holds it in memory. */
export interface EmbedSignedIn {
  session: string;
  username: string;
  /** ISO time the session ends. */
  expiresAt: string;
  /** The saved team, racer ids in slot order (empty when there is none yet). */
  team: number[];
  /** The saved racers' prices paid and today's, by id: the builder counts them as the save does. */
  held: Record<number, HeldRacer>;
  /** The saved team's budget (1,000,000 without one; decision 0141). */
  budget: number;
  /** The saved team's captain (a racer id of `team`), or null. */
  captain: number | null;
}

/** What the iframe's action answers. */
export type EmbedActionResult =
  | { intent: "exchange"; ok: true; player: EmbedSignedIn }
  | {
      intent: "save";
      ok: true;
      message: string;
      team: number[];
      held: Record<number, HeldRacer>;
      budget: number;
      captain: number | null;
    }
  | { intent: "signout"; ok: true }
  | {
      intent: EmbedAction["intent"] | "unknown";
      ok: false;
      message: string;
      reasons: string[];
      /** The player must sign in again (expired or revoked session). */
      signedOut?: boolean;
    };
