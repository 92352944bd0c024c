import {
  PARTNER_NAME_TOO_LONG,
  PARTNER_ORIGINS_TEXT_MAX,
  parseOrigin,
  parseOriginList,
  parsePartnerInput,
  partnerFormSchema,
} from "@game/core";
import {
  AdminActionError,
  addPartner,
  changePartnerOrigins,
  deletePartner,
  disablePartner,
  enablePartner,
  getPartner,
  getPartnerStats,
  listEvents,
  listPartners,
  type PartnerListRow,
  renamePartner,
  webActor,
} from "@game/db";
import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { fieldErrors } from "~/utils/field-errors";
import { PARTNER_PAGE_DAYS } from "./partner-stats";

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
    origins: String(form.get("origins") ?? "").slice(0, PARTNER_ORIGINS_TEXT_MAX),
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

// ---- Managing a partner ---------------------------------------------------------------------

export const MANAGE_INTENTS = ["rename", "origins", "disable", "enable", "delete"] as const;
export type ManageIntent = (typeof MANAGE_INTENTS)[number];

/**
 * One form per change, told apart by the button's `intent`. Text is only length-checked here:
 * the name and origin rules are the service's, shared with the CLI.
 */
const manageFormSchema = z.object({
  intent: z.enum(MANAGE_INTENTS, { error: "Unknown action." }),
  partnerId: z.coerce
    .number({ error: "Missing partner." })
    .int({ error: "Missing partner." })
    .positive({ error: "Missing partner." })
    .max(2 ** 31 - 1, { error: "Missing partner." }),
  name: z.string().max(200, PARTNER_NAME_TOO_LONG).optional(),
  origins: z.string().max(PARTNER_ORIGINS_TEXT_MAX, "That is too many origins.").optional(),
  /** "yes" once the admin has seen what a destructive change does. */
  confirm: z.string().optional(),
});

/** What the admin is asked before a change that stops a partner's pages (or some of them). */
export interface PartnerConfirmation {
  title: string;
  message: string;
  /** Listed under the message (the origins about to be removed). */
  items: string[];
  button: string;
  /** Posted again, with `confirm=yes`, by the confirmation's button. */
  fields: Record<string, string>;
}

export type PartnerManageResult =
  | { intent: ManageIntent; partnerId: number; ok: true; message: string }
  | {
      intent: ManageIntent | null;
      partnerId: number | null;
      ok: false;
      /** The message, shown next to `field` when there is one, else at the top. */
      error: string;
      field?: "name" | "origins";
      /** What was typed, shown again. */
      value?: string;
    }
  | {
      intent: ManageIntent;
      partnerId: number;
      ok: false;
      confirm: PartnerConfirmation;
    };

type Answer = { result: PartnerManageResult; status: number };

function confirmation(
  intent: ManageIntent,
  p: PartnerListRow,
  extra: Record<string, string> = {},
  removed: string[] = [],
): Answer {
  const fields = { intent, partnerId: String(p.id), ...extra };
  const confirm: PartnerConfirmation =
    intent === "disable"
      ? {
          title: `Disable ${p.name}?`,
          message:
            "Its sites lose API access (CORS) and the team builder at once, and readers signed in there are signed out. Its key and origins are kept, so it can be enabled again.",
          items: [],
          button: `Disable ${p.name}`,
          fields,
        }
      : intent === "delete"
        ? {
            title: `Delete ${p.name} for good?`,
            message: `This cannot be undone: the key ${p.publishableKey} will never work again. The audit log keeps a record.`,
            items: [],
            button: `Delete ${p.name}`,
            fields,
          }
        : {
            title: `Remove ${removed.length === 1 ? "an origin" : `${removed.length} origins`} from ${p.name}?`,
            message:
              "These sites lose API access (CORS) and the team builder at once, and readers signed in there are signed out:",
            items: removed,
            button: removed.length === 1 ? "Remove it and save" : "Remove them and save",
            fields,
          };
  return { result: { intent, partnerId: p.id, ok: false, confirm }, status: 200 };
}

/** The origins an edit would remove, or null when the text does not parse (the service says why). */
function removedBy(p: PartnerListRow, text: string): string[] | null {
  const next = parseOriginList(text);
  if (!next.ok) return null;
  const current = p.origins.map((o) => parseOrigin(o) ?? o);
  return current.filter((o) => !next.value.includes(o));
}

/**
 * Renames, edits origins, disables, enables or deletes a partner from the dashboard. Changes
 * that stop a partner's pages (disable, delete, removing an origin) first answer with a
 * confirmation, and happen only when it is posted back with `confirm=yes`.
 */
export async function managePartner(
  form: FormData,
  context: AppLoadContext,
  admin: { id: number; email: string },
): Promise<Answer> {
  const raw = Object.fromEntries(
    [...form.entries()].filter((e): e is [string, string] => typeof e[1] === "string"),
  );
  const rawId = Number(raw.partnerId);
  const partnerId = Number.isSafeInteger(rawId) && rawId > 0 ? rawId : null;
  const parsed = manageFormSchema.safeParse(raw);
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    const field = errors.name ? "name" : errors.origins ? "origins" : undefined;
    const intent = (MANAGE_INTENTS as readonly string[]).includes(raw.intent ?? "")
      ? (raw.intent as ManageIntent)
      : null;
    return {
      result: {
        intent,
        partnerId,
        ok: false,
        error: Object.values(errors)[0]!,
        field,
        value: field ? String(raw[field] ?? "").slice(0, 5000) : undefined,
      },
      status: 400,
    };
  }
  const { intent, name = "", origins = "" } = parsed.data;
  const id = parsed.data.partnerId;
  const confirmed = parsed.data.confirm === "yes";
  const actor = webActor(admin);
  const fail = (error: AdminActionError): Answer => {
    const field = intent === "rename" ? "name" : intent === "origins" ? "origins" : undefined;
    const onField = field && error.code !== "not-found";
    return {
      result: {
        intent,
        partnerId: id,
        ok: false,
        error: error.message,
        field: onField ? field : undefined,
        value: onField ? (field === "name" ? name : origins) : undefined,
      },
      status: error.code === "not-found" ? 404 : 400,
    };
  };
  const done = (message: string): Answer => ({
    result: { intent, partnerId: id, ok: true, message },
    status: 200,
  });

  try {
    const p = await getPartner(context.db, id);
    if (!p) throw new AdminActionError("That partner no longer exists.", "not-found");
    switch (intent) {
      case "rename": {
        const r = await renamePartner(context.db, id, name, actor);
        return done(r.changed ? `Renamed to ${r.partner.name}.` : "The name is unchanged.");
      }
      case "origins": {
        const removed = removedBy(p, origins);
        if (removed && removed.length > 0 && !confirmed) {
          // On one line: the confirmation posts it back from a hidden field.
          const again = origins.split(/\s+/).filter(Boolean).join(" ");
          return confirmation(intent, p, { origins: again }, removed);
        }
        const r = await changePartnerOrigins(context.db, id, { set: origins }, actor);
        if (!r.changed) return done(`${r.partner.name}'s origins are unchanged.`);
        const what = [
          r.added.length > 0 ? `added ${r.added.join(", ")}` : "",
          r.removed.length > 0 ? `removed ${r.removed.join(", ")}` : "",
        ].filter(Boolean);
        return done(`Saved ${r.partner.name}'s origins: ${what.join("; ")}.`);
      }
      case "disable": {
        if (!p.disabledAt && !confirmed) return confirmation(intent, p);
        const r = await disablePartner(context.db, id, actor, context.now());
        return done(
          r.changed
            ? `${r.partner.name} is disabled: its sites get no API access and its team builder is refused.`
            : `${r.partner.name} already was disabled.`,
        );
      }
      case "enable": {
        const r = await enablePartner(context.db, id, actor);
        return done(
          r.changed
            ? `${r.partner.name} is enabled again: its pages work with the same key.`
            : `${r.partner.name} already was enabled.`,
        );
      }
      case "delete": {
        if (!p.disabledAt) {
          throw new AdminActionError(`Disable ${p.name} before deleting it.`);
        }
        if (!confirmed) return confirmation(intent, p);
        const gone = await deletePartner(context.db, id, actor);
        return done(
          `${gone.name} is deleted; its key ${gone.publishableKey} will never work again.`,
        );
      }
    }
  } catch (error) {
    if (!(error instanceof AdminActionError)) throw error;
    return fail(error);
  }
}

export type PartnersActionResult = ({ intent: "add" } & PartnerFormResult) | PartnerManageResult;

/** The Partners page's action: the add form (no intent, or `add`), else a change to one partner. */
export async function partnersAction(
  form: FormData,
  context: AppLoadContext,
  admin: { id: number; email: string },
): Promise<{ result: PartnersActionResult; status: number }> {
  const intent = form.get("intent");
  if (intent === null || intent === "add") {
    const { result, status } = await createPartner(form, context, admin);
    return { result: { intent: "add", ...result }, status };
  }
  return managePartner(form, context, admin);
}

/** The partners page: every partner with its week's widget loads, the managed one's daily counts. */
export async function partnersPage(request: Request, context: AppLoadContext) {
  const [partners, events, week] = await Promise.all([
    listPartners(context.db),
    listEvents(context.db),
    getPartnerStats(context.db, { days: 7, now: context.now() }),
  ]);
  const asked = Number(new URL(request.url).searchParams.get("partner"));
  const weekLoads = new Map(week.map((r) => [r.partnerId, r.totals.widgetLoads]));
  const manageId = partners.some((p) => p.id === asked) ? asked : null;
  const managedStats =
    manageId === null
      ? []
      : ((
          await getPartnerStats(context.db, {
            partnerId: manageId,
            days: PARTNER_PAGE_DAYS,
            now: context.now(),
          })
        )[0]?.days ?? []);
  return {
    partners: partners.map((p) => ({
      ...p,
      createdAt: p.createdAt.toISOString(),
      disabledAt: p.disabledAt?.toISOString() ?? null,
      /** Widgets shown on the partner's pages in the last 7 UTC days (docs/decisions/0092). */
      weekLoads: weekLoads.get(p.id) ?? 0,
    })),
    /** The partner being managed (`?partner=ID`), when it exists. */
    manageId,
    /** The managed partner's counts per UTC day, oldest first (docs/decisions/0092). */
    stats: managedStats,
    // For the embed code generator: the game's address and the events to pick from.
    gameUrl: context.env.publicUrl ?? new URL(request.url).origin,
    events: events.map((e) => ({ id: e.id, name: e.name, status: e.status })),
  };
}

/** What the partners page shows (features/partners/partners-page.tsx). */
export type PartnersPageData = Awaited<ReturnType<typeof partnersPage>>;
