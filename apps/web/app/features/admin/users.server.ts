import {
  AdminActionError,
  acceptUser,
  blockUser,
  grantAdmin,
  revokeAdmin,
  webActor,
} from "@game/db";
import type { AppLoadContext } from "@remix-run/node";
import { fieldErrors } from "~/utils/field-errors";
import { userFormSchema } from "./forms";

export type UserFormResult =
  | { ok: true; userId: number; message: string }
  | { ok: false; userId: number | null; error: string };

/** Accept, block, grant or revoke admin for one user, from the users table's buttons. */
export async function changeUser(
  form: FormData,
  context: AppLoadContext,
  admin: { id: number; email: string },
): Promise<{ result: UserFormResult; status: number }> {
  const parsed = userFormSchema.safeParse(Object.fromEntries(form));
  const rawId = Number(form.get("userId"));
  const userId = Number.isSafeInteger(rawId) ? rawId : null;
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    return { result: { ok: false, userId, error: Object.values(errors)[0]! }, status: 400 };
  }
  const { intent } = parsed.data;
  const ref = { id: parsed.data.userId };
  const actor = webActor(admin);
  try {
    const r =
      intent === "accept"
        ? await acceptUser(context.db, ref, actor)
        : intent === "block"
          ? await blockUser(context.db, ref, actor)
          : intent === "revoke-admin"
            ? await revokeAdmin(context.db, ref, actor)
            : await grantAdmin(context.db, ref, actor);
    const who = r.user.username;
    const done = {
      accept: `${who} is accepted and can log in.`,
      block: `${who} is blocked and signed out everywhere.`,
      "grant-admin": `${who} is now an admin.`,
      "revoke-admin": `${who} is no longer an admin.`,
    }[intent];
    return { result: { ok: true, userId: r.user.id, message: done }, status: 200 };
  } catch (error) {
    if (!(error instanceof AdminActionError)) throw error;
    return {
      result: { ok: false, userId, error: error.message },
      status: error.code === "not-found" ? 404 : 400,
    };
  }
}
