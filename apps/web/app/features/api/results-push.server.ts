/**
 * `POST /api/v1/admin/events/:id/results`: a timing system pushes results as the race runs
 * (docs/decisions/0171). An admin API token authorises it, nothing else: a signed-in admin's or
 * player's cookie is never read. CSV or JSON, the file import's checks, idempotent by content;
 * provisional unless `?final=1`.
 */
import {
  type CsvTable,
  categoryFromSlug,
  decodeCsvBytes,
  formatResultIssue,
  isLocked,
  jsonResultsTable,
  lockTime,
  readCsv,
} from "@game/core";
import { getEvent, importResultsTable, verifyAdminToken } from "@game/db";
import type { ActionFunctionArgs } from "@remix-run/node";
import { logError } from "~/utils/log.server";
import { ApiError, categoryParam, errorResponse, idParam } from "./http.server";

const unauthorized = (message: string) =>
  new ApiError(401, "unauthorized", message, { "WWW-Authenticate": 'Bearer realm="admin"' });

/** The token's name, or a 401: only `Authorization: Bearer <admin API token>` is accepted. */
async function tokenName(request: Request, context: ActionFunctionArgs["context"]) {
  const header = request.headers.get("authorization") ?? "";
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) {
    throw unauthorized(
      "Send an admin API token: Authorization: Bearer <token> (game-admin tokens create --name <name>).",
    );
  }
  const name = await verifyAdminToken(context.db, match[1]!, context.now());
  if (!name) throw unauthorized("This token is unknown or has been revoked.");
  return name;
}

/** The body as a results table: JSON when it says so, else CSV in any encoding a file may have. */
async function bodyTable(request: Request): Promise<CsvTable> {
  const type = request.headers.get("content-type") ?? "";
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (/^application\/json\b/i.test(type)) {
    let value: unknown;
    try {
      value = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      throw new ApiError(400, "bad_json", "The body is not valid JSON.");
    }
    return jsonResultsTable(value);
  }
  try {
    return readCsv(decodeCsvBytes(bytes).text);
  } catch (error) {
    throw new ApiError(400, "bad_csv", error instanceof Error ? error.message : "Unreadable CSV.");
  }
}

function query(url: URL) {
  const category = url.searchParams.get("category");
  const parsed = category === null ? undefined : categoryParam.safeParse(category);
  if (parsed && !parsed.success) {
    throw new ApiError(400, "bad_request", parsed.error.issues[0]!.message);
  }
  const final = url.searchParams.get("final");
  if (final !== null && final !== "1" && final !== "0") {
    throw new ApiError(400, "bad_request", "final must be 1 (the final results) or 0.");
  }
  return {
    category: parsed?.success ? categoryFromSlug(parsed.data) : undefined,
    provisional: final !== "1",
  };
}

export async function pushResults({ request, params, context }: ActionFunctionArgs) {
  const headers = { "Cache-Control": "no-store" };
  try {
    if (request.method !== "POST") {
      throw new ApiError(405, "method_not_allowed", "Use POST.", { Allow: "POST" });
    }
    const name = await tokenName(request, context);
    const id = idParam("id").safeParse(params.id);
    if (!id.success) throw new ApiError(400, "bad_request", id.error.issues[0]!.message);
    const { category, provisional } = query(new URL(request.url));
    const event = await getEvent(context.db, id.data);
    if (!event) throw new ApiError(404, "event_not_found", `There is no event ${id.data}.`);
    const now = context.now();
    // As the CLI without --force: results before the lock would freeze every team early.
    if (!event.frozenAt && !isLocked(event, now)) {
      throw new ApiError(
        409,
        "not_locked",
        `Teams for event ${event.id} lock at ${lockTime(event).toISOString()}: results are taken once the teams are locked.`,
      );
    }
    const table = await bodyTable(request);
    const outcome = await importResultsTable(context.db, event.id, table, {
      now,
      provisional,
      category,
      audit: { actor: `token:${name}`, actorId: null },
    });
    if (!outcome.ok) {
      const status = outcome.reason === "final" ? 409 : outcome.reason === "not-found" ? 404 : 422;
      return Response.json(
        {
          error: {
            code: outcome.reason === "invalid" ? "invalid_results" : outcome.reason,
            message: outcome.issues.map(formatResultIssue).join("\n"),
            issues: outcome.issues,
          },
        },
        { status, headers },
      );
    }
    return Response.json(
      {
        eventId: outcome.eventId,
        provisional: outcome.provisional,
        unchanged: outcome.unchanged,
        categories: outcome.categories,
        results: outcome.rows.length,
        teamsScored: outcome.settlement?.teams ?? null,
      },
      { headers },
    );
  } catch (error) {
    if (error instanceof ApiError) return errorResponse(error, headers);
    logError(`API error ${request.method} ${new URL(request.url).pathname}`, error);
    return errorResponse(
      new ApiError(500, "internal", "Something went wrong on our side."),
      headers,
    );
  }
}
