import { AdminActionError, type AdvanceSummary, advanceSeason, webActor } from "@game/db";
import type { AppLoadContext } from "@remix-run/node";
import { timed } from "~/load-context";
import { SEASON_ADVANCE_INTENT, seasonAdvanceFormSchema } from "./forms";

export type SeasonAdvanceResult =
  | { intent: typeof SEASON_ADVANCE_INTENT; ok: true; summary: AdvanceSummary }
  | { intent: typeof SEASON_ADVANCE_INTENT; ok: false; error: string };

/**
 * The dashboard's "Advance season": the same service as `game-admin season advance`, for the
 * competition chosen (`competition`, its slug; needed when several have an open round). Without
 * a confirmation it is a preview (dry run); the confirmation carries the competition and the
 * rounds the preview showed and is refused if the season would now do something else. A refusal (not settled, last round,
 * changed since the preview) comes back as the message the CLI prints.
 */
export async function advanceFromForm(
  form: FormData,
  context: AppLoadContext,
  admin: { id: number; email: string },
): Promise<{ result: SeasonAdvanceResult; status: number }> {
  const raw = Object.fromEntries(form);
  const parsed = seasonAdvanceFormSchema.safeParse({ ...raw, confirm: raw.confirm ?? "no" });
  if (!parsed.success) {
    const error = "Preview the advance first, then confirm the rounds it shows.";
    return { result: { intent: SEASON_ADVANCE_INTENT, ok: false, error }, status: 400 };
  }
  const input = parsed.data;
  const dryRun = input.confirm === "no";
  const force = input.force === "yes";
  const expect = input.confirm === "yes" ? { from: input.from, to: input.to } : undefined;
  try {
    const advance = () =>
      advanceSeason(context.db, {
        now: new Date(),
        actor: webActor(admin),
        dryRun,
        force,
        ...(expect ? { expect } : {}),
        ...(input.competition ? { competition: input.competition } : {}),
      });
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
