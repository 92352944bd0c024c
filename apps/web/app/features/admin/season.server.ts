import { AdminActionError, type AdvanceSummary, advanceSeason, webActor } from "@game/db";
import type { AppLoadContext } from "@remix-run/node";
import { timed } from "~/load-context";
import { SEASON_ADVANCE_INTENT } from "./forms";

export type SeasonAdvanceResult =
  | { intent: typeof SEASON_ADVANCE_INTENT; ok: true; summary: AdvanceSummary }
  | { intent: typeof SEASON_ADVANCE_INTENT; ok: false; error: string };

/**
 * The dashboard's "Advance season": the same service as `game-admin season advance`, a preview
 * (dry run) unless the admin confirmed; a refusal (not settled, last round) comes back as the
 * message the CLI prints.
 */
export async function advanceFromForm(
  form: FormData,
  context: AppLoadContext,
  admin: { id: number; email: string },
): Promise<{ result: SeasonAdvanceResult; status: number }> {
  const dryRun = form.get("confirm") !== "yes";
  const force = form.get("force") === "yes";
  try {
    const advance = () =>
      advanceSeason(context.db, { now: new Date(), actor: webActor(admin), dryRun, force });
    const summary = await (dryRun ? advance() : timed(context, "season_advance", advance));
    return { result: { intent: SEASON_ADVANCE_INTENT, ok: true, summary }, status: 200 };
  } catch (error) {
    if (error instanceof AdminActionError) {
      return {
        result: { intent: SEASON_ADVANCE_INTENT, ok: false, error: error.message },
        status: 409,
      };
    }
    throw error;
  }
}
