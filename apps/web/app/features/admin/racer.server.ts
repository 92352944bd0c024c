/**
 * /admin/racer/:id: one racer's edit form, withdrawal and reinstatement, through the same services
 * as `game-admin racers set|withdraw|reinstate`.
 */
import { readWholeNumber } from "@game/core";
import {
  AdminActionError,
  getRacerForAdmin,
  type RacerEdit,
  setRacer,
  setRacerWithdrawn,
  webActor,
} from "@game/db";
import { type AppLoadContext, data } from "@remix-run/node";
import type { SessionUser } from "~/utils/auth.server";
import { readForm } from "~/utils/request.server";

export type RacerFormResult = { ok: true; message: string } | { ok: false; error: string };

function racerId(param: string | undefined): number {
  const id = Number(param);
  if (!/^\d{1,10}$/.test(param ?? "") || !Number.isSafeInteger(id) || id <= 0) {
    throw data({ message: "No such racer." }, { status: 404 });
  }
  return id;
}

/** The racer `param` names, for the edit page (404 when there is none). */
export async function racerForAdmin(context: AppLoadContext, param: string | undefined) {
  const racer = await getRacerForAdmin(context.db, racerId(param));
  if (!racer) throw data({ message: "No such racer." }, { status: 404 });
  return {
    racer: {
      ...racer,
      withdrawnAt: racer.withdrawnAt?.toISOString() ?? null,
      createdAt: racer.createdAt.toISOString(),
      updatedAt: racer.updatedAt.toISOString(),
    },
  };
}

const NUMBER_FIELDS = [
  ["rank2024", "Rank2024"],
  ["totalPoint2024", "TotalPoint2024"],
  ["price", "Price"],
] as const;

/** The edit form's fields; a number the rules cannot read is refused, not defaulted. */
function readEdit(form: FormData): RacerEdit | string {
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : undefined;
  };
  const edit: RacerEdit = {
    category: text("category"),
    firstName: text("firstName"),
    lastName: text("lastName"),
    origin: text("origin"),
    picture: text("picture"),
  };
  for (const [field, label] of NUMBER_FIELDS) {
    const cell = text(field);
    if (cell === undefined) continue;
    const read = readWholeNumber(cell);
    if (read.kind !== "value") return `${label} must be a whole number from 0.`;
    edit[field] = read.value;
  }
  return edit;
}

/** Save, withdraw or reinstate the racer `param` names, as `admin` (audited). */
export async function racerAction(
  request: Request,
  context: AppLoadContext,
  admin: SessionUser,
  param: string | undefined,
) {
  const id = racerId(param);
  const form = await readForm(request);
  const intent = form.get("intent");
  const actor = webActor(admin);
  const answer = (result: RacerFormResult, status = 200) => data(result, { status });
  try {
    if (intent === "withdraw" || intent === "reinstate") {
      const r = await setRacerWithdrawn(context.db, id, intent === "withdraw", actor);
      const name = `${r.racer.firstName} ${r.racer.lastName}`;
      const teams = `${r.teamsHolding} ${r.teamsHolding === 1 ? "team holds" : "teams hold"} them`;
      return answer({
        ok: true,
        message: !r.changed
          ? `${name} already was ${intent === "withdraw" ? "withdrawn" : "starting"}.`
          : intent === "withdraw"
            ? `${name} is withdrawn and can no longer be picked; ${teams} and will see a notice.`
            : `${name} is reinstated and can be picked again.`,
      });
    }
    if (intent !== "save") return answer({ ok: false, error: "Unknown action." }, 400);
    const edit = readEdit(form);
    if (typeof edit === "string") return answer({ ok: false, error: edit }, 400);
    const r = await setRacer(context.db, id, edit, actor);
    return answer({
      ok: true,
      message:
        r.changes.length === 0
          ? "Nothing changed."
          : `Saved: ${r.changes.map((c) => `${c.field} ${c.from ?? "(none)"} → ${c.to ?? "(none)"}`).join(", ")}.`,
    });
  } catch (error) {
    if (!(error instanceof AdminActionError)) throw error;
    return answer({ ok: false, error: error.message }, error.code === "not-found" ? 404 : 400);
  }
}
