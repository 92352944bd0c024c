/**
 * The dashboard's results upload (/admin/results): check a file (nothing written), import it
 * (results replaced and the event settled in one transaction), final or provisional while the
 * race runs, settle an event again, or make provisional results final (decision 0171). Every
 * write goes through the same services as `game-admin results import`, `results finalize` and
 * `scores settle`, and is recorded in the audit log as "web:<email>".
 */
import {
  type Category,
  CSV_MAX_BYTES,
  CsvFileError,
  decodeCsvBytes,
  formatDateTime,
  formatResultIssue,
  isLocked,
  lockTime,
  type ResultIssue,
  resultsUploadSchema,
  settleFormSchema,
} from "@game/core";
import {
  type EventRow,
  finalizeResults,
  getEvent,
  importResults,
  listEventResults,
  listEvents,
  type ResultPreviewRow,
  SettlementError,
  type SettlementSummary,
  settleEvent,
  webActor,
} from "@game/db";
import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { timed } from "~/load-context";
import { readTimeZone } from "~/utils/time-zone.server";
import {
  BusyError,
  oneUploadAtATime,
  readUploadForm,
  UPLOAD_BUSY,
  uploadFileName,
} from "~/utils/upload-form.server";
import { finalizeMessage, resultsImportMessage } from "./upload-messages";

type Admin = { id: number; email: string };

/** Issues shown at most; the rest are counted ("and 12 more"). */
export const MAX_ISSUES_SHOWN = 200;
/** Rows of a checked file shown in the preview: every row of any real results file. */
export const PREVIEW_ROWS = 1000;

/** What a post of the results page asks for. */
export type ResultsIntent = "preview" | "import" | "settle" | "finalize";

/** The upload form: the shared schema, and its "Provisional results" box (absent: final). */
const uploadFormSchema = resultsUploadSchema.extend({
  provisional: z
    .enum(["yes"], { error: "Tick Provisional results, or leave the box empty." })
    .optional()
    .transform((v) => v === "yes"),
});

export type ResultsActionData =
  | {
      intent: ResultsIntent;
      ok: false;
      eventId: number | null;
      error: string;
      issues: string[];
      moreIssues: number;
    }
  | {
      intent: "preview";
      ok: true;
      eventId: number;
      eventName: string;
      csv: string;
      /** The category chosen for the file (a timing export per category), or null. */
      category: Category | null;
      /** The categories whose results the import replaces. */
      categories: Category[];
      fileName: string;
      counts: Record<"rows" | "finished" | "DNF" | "DNS" | "DSQ", number>;
      preview: ResultPreviewRow[];
      lockWarning: string | null;
      /** The file is checked as provisional results (the box was ticked). */
      provisional: boolean;
      /** What importing it does to the round's state, in one sentence. */
      stateNote: string | null;
    }
  | {
      intent: "import";
      ok: true;
      eventId: number;
      eventName: string;
      /** Null when the file held the results stored (`unchanged`): nothing was re-scored. */
      settlement: SettlementSummary | null;
      rows: number;
      /** The round's results are provisional after the import. */
      provisional: boolean;
      unchanged: boolean;
      message: string;
    }
  | {
      intent: "settle";
      ok: true;
      eventId: number;
      eventName: string;
      settlement: SettlementSummary;
      rows: number;
    }
  | {
      intent: "finalize";
      ok: true;
      eventId: number;
      eventName: string;
      alreadyFinal: boolean;
      /** Null when the results were final already. */
      settlement: SettlementSummary | null;
      message: string;
    };

function lockWarning(event: EventRow, now: Date, timeZone: string): string | null {
  if (isLocked(event, now)) return null;
  return `Teams for ${event.name} lock on ${formatDateTime(lockTime(event), timeZone)}. Importing results now freezes every team at once.`;
}

/** What a post of the results page answers, and its status. */
type Answer = { data: ResultsActionData; status: number };

function failure(
  intent: ResultsIntent,
  eventId: number | null,
  error: string,
  issues: readonly ResultIssue[] = [],
): Answer {
  return {
    data: {
      intent,
      ok: false,
      eventId,
      error,
      issues: issues.slice(0, MAX_ISSUES_SHOWN).map(formatResultIssue),
      moreIssues: Math.max(0, issues.length - MAX_ISSUES_SHOWN),
    },
    status: 400,
  };
}

/**
 * Handles a post of the results page: multipart (file upload) or url-encoded (settle, confirm).
 * One at a time, like every CSV upload: another one running, it is told to wait (503).
 */
export async function resultsAction(
  request: Request,
  context: AppLoadContext,
  admin: Admin,
): Promise<Answer> {
  try {
    return await oneUploadAtATime(() => readResults(request, context, admin));
  } catch (error) {
    if (!(error instanceof BusyError)) throw error;
    return { ...failure("preview", null, UPLOAD_BUSY), status: 503 };
  }
}

async function readResults(
  request: Request,
  context: AppLoadContext,
  admin: Admin,
): Promise<Answer> {
  const multipart = (request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data");
  const form = multipart
    ? await readUploadForm(request, CSV_MAX_BYTES)
    : await request.formData().catch(() => "unreadable" as const);
  if (form === "too-big") {
    return failure("preview", null, `The file is larger than ${CSV_MAX_BYTES / 1024 / 1024} MB.`);
  }
  if (form === "unreadable") return failure("preview", null, "The upload could not be read.");
  // One moment for the whole post: what is checked and what is stored agree on it.
  const now = context.now();
  const intent = form.get("intent");
  if (intent === "finalize") return finalize(form, context, admin, now);
  if (intent === "settle") return settle(form, context, admin, now);
  return uploadResults(request, form, context, admin, now);
}

/** Settles the round again from its stored results. */
function settle(form: FormData, context: AppLoadContext, admin: Admin, now: Date): Promise<Answer> {
  return onStoredRound("settle", form, context, async (event) => {
    const settlement = await timed(context, "settle", () =>
      settleEvent(context.db, event.id, { now, audit: webActor(admin) }),
    );
    return {
      intent: "settle",
      ok: true,
      eventId: event.id,
      eventName: event.name,
      settlement,
      rows: settlement.results,
    };
  });
}

/**
 * "Score again" and "Make final": `run` on the chosen round, or why not (no such round, or the
 * settlement's refusal) as the answer.
 */
async function onStoredRound(
  intent: "settle" | "finalize",
  form: FormData,
  context: AppLoadContext,
  run: (event: NonNullable<Awaited<ReturnType<typeof getEvent>>>) => Promise<ResultsActionData>,
): Promise<Answer> {
  const parsed = settleFormSchema.safeParse({ eventId: form.get("eventId") });
  if (!parsed.success) return failure(intent, null, parsed.error.issues[0]!.message);
  const event = await getEvent(context.db, parsed.data.eventId);
  if (!event) return failure(intent, parsed.data.eventId, "That event does not exist.");
  try {
    return { data: await run(event), status: 200 };
  } catch (error) {
    if (error instanceof SettlementError) return failure(intent, event.id, error.message);
    throw error;
  }
}

/** A results file (uploaded or pasted) checked for a preview, or imported and settled. */
async function uploadResults(
  request: Request,
  form: FormData,
  context: AppLoadContext,
  admin: Admin,
  now: Date,
): Promise<Answer> {
  const intent = form.get("intent") === "import" ? "import" : "preview";
  const eventIdRaw = Number(form.get("eventId"));
  const eventId = Number.isSafeInteger(eventIdRaw) && eventIdRaw > 0 ? eventIdRaw : null;
  const file = form.get("file");
  // Decoded like racer files: timing exports are often Windows-1252 or UTF-16 from Excel.
  let fileText: string | null = null;
  if (file instanceof Blob && file.size > 0) {
    try {
      fileText = decodeCsvBytes(await file.arrayBuffer()).text;
    } catch (error) {
      if (!(error instanceof CsvFileError)) throw error;
      return failure(intent, eventId, error.message);
    }
  }
  const parsed = uploadFormSchema.safeParse({
    eventId: form.get("eventId"),
    csv: fileText ?? form.get("csv") ?? "",
    category: form.get("category") ?? undefined,
    intent: form.get("intent") ?? undefined,
    provisional: form.get("provisional") ?? undefined,
  });
  if (!parsed.success) {
    return failure(intent, eventId, parsed.error.issues.map((i) => i.message).join(" "));
  }
  const input = parsed.data;
  const event = await getEvent(context.db, input.eventId);
  if (!event) return failure(input.intent, input.eventId, "That event does not exist.");

  // An import settles the event in the same transaction: timed as a settlement (not a preview).
  const runImport = () =>
    importResults(context.db, event.id, input.csv, {
      now,
      dryRun: input.intent === "preview",
      audit: webActor(admin),
      category: input.category,
      provisional: input.provisional,
    });
  const outcome = await (input.intent === "preview"
    ? runImport()
    : timed(context, "settle", runImport));
  if (!outcome.ok && outcome.reason === "final") {
    // Final results refuse provisional ones (decision 0171): the one reason, not a list.
    return {
      ...failure(input.intent, event.id, outcome.issues.map((i) => i.message).join(" ")),
      status: 409,
    };
  }
  if (!outcome.ok) {
    const n = outcome.issues.length;
    return failure(
      input.intent,
      event.id,
      `Nothing was imported: ${n} ${n === 1 ? "problem" : "problems"} in the file.`,
      outcome.issues,
    );
  }
  if (input.intent === "preview") {
    const count = (s: string) => outcome.rows.filter((r) => r.status === s).length;
    return {
      data: {
        intent: "preview",
        ok: true,
        eventId: event.id,
        eventName: event.name,
        csv: input.csv,
        category: input.category ?? null,
        categories: outcome.categories,
        fileName: uploadFileName(file, "results.csv"),
        counts: {
          rows: outcome.rows.length,
          finished: count("finished"),
          DNF: count("DNF"),
          DNS: count("DNS"),
          DSQ: count("DSQ"),
        },
        preview: outcome.rows.slice(0, PREVIEW_ROWS),
        lockWarning: lockWarning(event, now, readTimeZone(request)),
        provisional: input.provisional,
        stateNote: stateNote(event, input.provisional),
      },
      status: 200,
    };
  }
  return {
    data: {
      intent: "import",
      ok: true,
      eventId: event.id,
      eventName: event.name,
      settlement: outcome.settlement ?? null,
      rows: outcome.rows.length,
      provisional: outcome.provisional,
      unchanged: outcome.unchanged,
      message: resultsImportMessage({
        eventName: event.name,
        rows: outcome.rows.length,
        provisional: outcome.provisional,
        wasProvisional: event.provisional,
        unchanged: outcome.unchanged,
      }),
    },
    status: 200,
  };
}

/** What importing a checked file does to the round's state (null: nothing worth saying). */
function stateNote(event: EventRow, provisional: boolean): string | null {
  if (provisional) {
    return "Provisional results: points and ranks say provisional until the final results.";
  }
  return event.provisional
    ? "The round's results are provisional; importing this file makes them final."
    : null;
}

/**
 * "Make final": the round's provisional results become final as they stand and are scored once
 * more (`game-admin results finalize`). Results already final are left as they are.
 */
function finalize(
  form: FormData,
  context: AppLoadContext,
  admin: Admin,
  now: Date,
): Promise<Answer> {
  return onStoredRound("finalize", form, context, async (event) => {
    const outcome = await timed(context, "settle", () =>
      finalizeResults(context.db, event.id, { now, audit: webActor(admin) }),
    );
    return {
      intent: "finalize",
      ok: true,
      eventId: event.id,
      eventName: event.name,
      alreadyFinal: outcome.alreadyFinal,
      settlement: outcome.alreadyFinal ? null : outcome.settlement,
      message: finalizeMessage(event.name, outcome.alreadyFinal),
    };
  });
}

/** The page: every event with its scoring state, and the stored results of the chosen one. */
export async function resultsLoader(request: Request, context: AppLoadContext) {
  const events = await listEvents(context.db);
  const asked = Number(new URL(request.url).searchParams.get("event"));
  const chosen =
    events.find((e) => e.id === asked) ??
    events.find((e) => e.status === "open") ??
    events.at(-1) ??
    null;
  const now = context.now();
  return {
    events: events.map((e) => ({
      id: e.id,
      name: e.name,
      status: e.status,
      locked: isLocked(e, now),
      frozenAt: e.frozenAt?.toISOString() ?? null,
      settledAt: e.settledAt?.toISOString() ?? null,
      provisional: e.provisional,
    })),
    chosen: chosen
      ? {
          id: chosen.id,
          name: chosen.name,
          provisional: chosen.provisional,
          lockWarning: lockWarning(chosen, now, readTimeZone(request)),
          results: await listEventResults(context.db, chosen.id),
        }
      : null,
  };
}

/** What the results page shows (features/admin/results-page.tsx). */
export type ResultsPageData = Awaited<ReturnType<typeof resultsLoader>>;
