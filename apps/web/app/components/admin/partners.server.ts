import { AdminActionError, addPartner, parsePartnerInput, webActor } from "@game/db";
import type { AppLoadContext } from "@remix-run/node";
import { fieldErrors, partnerFormSchema } from "./forms";

export type PartnerFormResult =
  | { ok: true; name: string; publishableKey: string }
  | { ok: false; errors: Record<string, string>; values: { name: string; origins: string } };

/** Adds a partner from the form: name and origins (one per line, or separated by spaces). */
export async function createPartner(
  form: FormData,
  context: AppLoadContext,
  admin: { id: number; email: string },
): Promise<{ result: PartnerFormResult; status: number }> {
  const values = {
    name: String(form.get("name") ?? "").slice(0, 200),
    origins: String(form.get("origins") ?? "").slice(0, 5000),
  };
  const parsed = partnerFormSchema.safeParse(values);
  if (!parsed.success) {
    return { result: { ok: false, errors: fieldErrors(parsed.error), values }, status: 400 };
  }
  // The origin rules are the service's (the CLI's `partners add` uses them too).
  const checked = parsePartnerInput(parsed.data);
  if (!checked.ok) {
    return { result: { ok: false, errors: checked.errors, values }, status: 400 };
  }
  try {
    const p = await addPartner(context.db, checked.value, webActor(admin));
    return { result: { ok: true, name: p.name, publishableKey: p.publishableKey }, status: 200 };
  } catch (error) {
    if (!(error instanceof AdminActionError)) throw error;
    return { result: { ok: false, errors: { form: error.message }, values }, status: 400 };
  }
}
