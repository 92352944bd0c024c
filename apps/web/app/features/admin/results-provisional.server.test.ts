/**
 * Race day on the dashboard (docs/decisions/0171-live-provisional-results.md): provisional
 * results uploaded on /admin/results, the same file again changing nothing, "Make final" on the
 * results page and the events page, and final results refusing provisional ones. The route's own
 * action and loader run against a real database, posted as the browser posts them.
 */
import { auditLog, events, racers } from "@game/db";
import { createTestDb, type DbHandle, putTeam } from "@game/db/testing";
import { eq } from "drizzle-orm";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import {
  createStaticHandler,
  createStaticRouter,
  StaticRouterProvider,
} from "react-router-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookieFor, makeUser, request, testContext } from "../../../tests/support/context";
import * as adminEvents from "../../routes/admin.events";
import * as adminResults from "../../routes/admin.results";
import { PROVISIONAL_HINT, resultsImportMessage } from "./upload-messages";

let h: DbHandle;
let ctx: ReturnType<typeof testContext>;
let admin: Awaited<ReturnType<typeof makeUser>>;
let adminCookie: string;
let playerCookie: string;
let men: { id: number; firstName: string; lastName: string }[];

/** Event 5 of the seed. */
const ROUND = "Pro Downhill Series Round 1: Windrock";
const HEADER = "Position,First Name,Last Name,Category";
const line = (position: string, r: { firstName: string; lastName: string }) =>
  `${position},${r.firstName},${r.lastName},Pro Men`;
/** The first riders down the hill: two results of the final so far. */
const firstRuns = () => [HEADER, line("1", men[3]!), line("2", men[2]!)].join("\n");

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  // Round 1 (event 5) starts 18 April 2027: its teams are locked, its race is on.
  ctx = testContext(h.db, { now: () => new Date("2027-04-18T17:00:00Z") });
  admin = await makeUser(h.db, { role: "admin", username: "racedesk" });
  adminCookie = await cookieFor(ctx, admin);
  const player = await makeUser(h.db, { username: "fan" });
  playerCookie = await cookieFor(ctx, player);
  men = await h.db
    .select({ id: racers.id, firstName: racers.firstName, lastName: racers.lastName })
    .from(racers)
    .where(eq(racers.category, "Pro Men"))
    .orderBy(racers.id);
  await putTeam(h.db, player.id, 5, [men[0]!.id, men[2]!.id]);
});
afterAll(() => h.close());

type Answer = { status: number; body: Record<string, unknown> };

function answer(value: unknown): Answer {
  const v = value as { data?: unknown; init?: { status?: number } | null };
  return { status: v.init?.status ?? 200, body: v.data as Record<string, unknown> };
}

/** The upload form as the browser posts it (multipart), the box ticked or not. */
async function upload(
  csv: string,
  opts: { provisional?: boolean; intent?: "preview" | "import"; cookie?: string } = {},
): Promise<Answer> {
  const form = new FormData();
  form.set("eventId", "5");
  form.set("intent", opts.intent ?? "import");
  form.set("category", "");
  if (opts.provisional) form.set("provisional", "yes");
  form.set("file", new File([csv], "live.csv", { type: "text/csv" }));
  return answer(
    await adminResults.action({
      request: new Request("http://localhost/admin/results", {
        method: "POST",
        headers: { Cookie: opts.cookie ?? adminCookie, Origin: "http://localhost" },
        body: form,
      }),
      context: ctx,
      params: {},
    }),
  );
}

/** "Make final" as the browser posts it without JavaScript (url-encoded). */
async function makeFinal(eventId: string, cookie = adminCookie): Promise<Answer> {
  return answer(
    await adminResults.action({
      request: request(`/admin/results?event=${eventId}`, {
        cookie,
        form: { intent: "finalize", eventId },
      }),
      context: ctx,
      params: {},
    }),
  );
}

async function isProvisional(eventId: number): Promise<boolean> {
  const [e] = await h.db
    .select({ provisional: events.provisional })
    .from(events)
    .where(eq(events.id, eventId));
  return e!.provisional;
}

const auditActions = async () =>
  (await h.db.select().from(auditLog).orderBy(auditLog.id)).map((r) => [r.actor, r.action]);

async function thrown(fn: () => unknown): Promise<Response> {
  try {
    await fn();
  } catch (error) {
    return error as Response;
  }
  throw new Error("expected a refusal");
}

/** A page's HTML as the server renders it for the admin (loader, then the route's component). */
async function rendered(
  path: string,
  route: { loader: (args: never) => unknown; default: () => unknown },
): Promise<string> {
  const handler = createStaticHandler([
    {
      id: "page",
      path: path.split("?")[0]!,
      loader: async ({ request: r, params }) =>
        (await route.loader({ request: r, params, context: ctx } as never)) as object,
      Component: route.default as () => null,
    },
  ]);
  const context = await handler.query(request(path, { cookie: adminCookie }));
  if (context instanceof Response) throw new Error(`the page answered ${context.status}`);
  const html = renderToString(
    createElement(StaticRouterProvider, {
      router: createStaticRouter(handler.dataRoutes, context),
      context,
      hydrate: false,
    }),
  );
  // Without React's markers between adjacent texts, the page's words read as they show.
  return html.replaceAll("<!-- -->", "");
}

describe("who may post", () => {
  it("refuses players and visitors: no upload, no Make final, nothing written", async () => {
    const visitor = await thrown(() =>
      adminResults.loader({ request: request("/admin/results"), context: ctx, params: {} }),
    );
    expect(visitor.status).toBe(302);
    const uploaded = await thrown(() =>
      upload(firstRuns(), { provisional: true, cookie: playerCookie }),
    );
    expect(uploaded.status).toBe(403);
    const finalized = await thrown(() => makeFinal("5", playerCookie));
    expect(finalized.status).toBe(403);
    expect(await isProvisional(5)).toBe(false);
    expect(await auditActions()).toEqual([]);
  });
});

describe("provisional results on race day", () => {
  it("offers the Provisional results box, unticked, with its hint", async () => {
    const html = await rendered("/admin/results?event=5", adminResults);
    expect(html).toMatch(
      /<input type="checkbox" id="results-provisional" name="provisional" aria-describedby="results-provisional-hint" value="yes"\/>/,
    );
    expect(html).toContain('<label for="results-provisional">Provisional results</label>');
    expect(html).toContain(
      `<p id="results-provisional-hint" class="field-hint">${PROVISIONAL_HINT}`,
    );
    expect(html).not.toContain("Make final");
  });

  it("checks a provisional file as provisional and carries the box to the import button", async () => {
    const preview = await upload(firstRuns(), { provisional: true, intent: "preview" });
    expect(preview.body).toMatchObject({
      ok: true,
      intent: "preview",
      provisional: true,
      stateNote: "Provisional results: points and ranks say provisional until the final results.",
    });
    expect(await isProvisional(5)).toBe(false);
    expect(await auditActions()).toEqual([]);
  });

  it("imports provisional results: the round is scored and says provisional", async () => {
    const done = await upload(firstRuns(), { provisional: true });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      ok: true,
      intent: "import",
      rows: 2,
      provisional: true,
      unchanged: false,
      settlement: { teams: 1, provisional: true },
    });
    expect(done.body.message).toBe(
      `Imported 2 provisional results for ${ROUND} and scored it. The results are provisional: points and ranks say so until the final results.`,
    );
    expect(await isProvisional(5)).toBe(true);
    expect(await auditActions()).toEqual([
      [`web:${admin.email}`, "results.import"],
      [`web:${admin.email}`, "scores.settle"],
    ]);

    const page = (await adminResults.loader({
      request: request("/admin/results?event=5", { cookie: adminCookie }),
      context: ctx,
      params: {},
    })) as Awaited<ReturnType<typeof adminResults.loader>>;
    expect(page.chosen).toMatchObject({ id: 5, provisional: true });
    expect(page.events.find((e) => e.id === 5)).toMatchObject({ provisional: true });
    expect(page.events.find((e) => e.id === 6)).toMatchObject({ provisional: false });
  });

  it("says unchanged when the same file comes again, and re-scores nothing", async () => {
    const before = await auditActions();
    const again = await upload(firstRuns(), { provisional: true });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({
      ok: true,
      intent: "import",
      provisional: true,
      unchanged: true,
      settlement: null,
    });
    expect(again.body.message).toBe(
      `Unchanged: the file holds the results stored for ${ROUND}; nothing re-scored. The results are still provisional.`,
    );
    expect(await auditActions()).toEqual(before);
    expect(await isProvisional(5)).toBe(true);
  });

  it("shows the round as Provisional with a Make final button, on the results and events pages", async () => {
    const results = await rendered("/admin/results?event=5", adminResults);
    expect(results).toContain('<span class="admin-status" data-status="provisional">Provisional');
    expect(results).toMatch(
      /<input type="hidden" name="eventId" value="5"\/><button type="submit" name="intent" value="finalize" class="button button--primary" aria-describedby="stored-provisional">Make final<\/button>/,
    );
    expect(results).toContain(`5. ${ROUND} (provisional)`);

    const eventsPage = await rendered("/admin/events", adminEvents);
    expect(eventsPage).toMatch(
      /<form method="post" action="\/admin\/results\?event=5"><input type="hidden" name="eventId" value="5"\/><button type="submit" name="intent" value="finalize"[^>]*>Make final<\/button>/,
    );
    expect(eventsPage).toContain("results provisional.");
    // One button only: the other rounds are not provisional.
    expect(eventsPage.match(/>Make final</g)).toHaveLength(1);
  });

  it("makes the results final: scored once more, audited as the admin, no longer provisional", async () => {
    const done = await makeFinal("5");
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      ok: true,
      intent: "finalize",
      eventId: 5,
      alreadyFinal: false,
      message: `The results of ${ROUND} are final now.`,
      settlement: { teams: 1, provisional: false },
    });
    expect(await isProvisional(5)).toBe(false);
    expect((await auditActions()).slice(-2)).toEqual([
      [`web:${admin.email}`, "results.finalize"],
      [`web:${admin.email}`, "scores.settle"],
    ]);
    const results = await rendered("/admin/results?event=5", adminResults);
    expect(results).not.toContain("Make final");
    expect(results).not.toContain("(provisional)");

    const twice = await makeFinal("5");
    expect(twice.body).toMatchObject({
      ok: true,
      intent: "finalize",
      alreadyFinal: true,
      settlement: null,
      message: `The results of ${ROUND} are final already: nothing to do.`,
    });
  });

  it("refuses provisional results once the results are final, saying why", async () => {
    const before = await auditActions();
    const late = await upload([HEADER, line("1", men[0]!)].join("\n"), { provisional: true });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({
      ok: false,
      intent: "import",
      eventId: 5,
      error:
        "The results of event 5 are final: provisional results can no longer replace them. Import a corrected file as final to correct them.",
      issues: [],
    });
    // Checking the file says so too, before anything could be imported.
    const checked = await upload(firstRuns(), { provisional: true, intent: "preview" });
    expect(checked.body).toMatchObject({ ok: false, error: late.body.error });
    expect(await isProvisional(5)).toBe(false);
    expect(await auditActions()).toEqual(before);
  });

  it("says final (and unchanged) for the same file imported as final", async () => {
    const final = await upload(firstRuns());
    expect(final.body).toMatchObject({ ok: true, provisional: false, unchanged: true });
    expect(final.body.message).toBe(
      `Unchanged: the file holds the results stored for ${ROUND}; nothing re-scored. The results are final.`,
    );
  });

  it("shows Make final's errors as the form's error: no results, no such event", async () => {
    const none = await makeFinal("6");
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({
      ok: false,
      intent: "finalize",
      eventId: 6,
      error: "Event 6 has no results yet: import them first.",
    });
    expect(await isProvisional(6)).toBe(false);
    const missing = await makeFinal("999");
    expect(missing.body).toMatchObject({ ok: false, error: "That event does not exist." });
    const bad = await makeFinal("x");
    expect(bad.body).toMatchObject({ ok: false, error: "Choose an event." });
  });
});

describe("the import's message", () => {
  it("says whether the round is provisional or final after the import", () => {
    const base = { eventName: "Round 2", rows: 1200, unchanged: false };
    expect(resultsImportMessage({ ...base, provisional: false, wasProvisional: true })).toBe(
      "Imported 1,200 results for Round 2 and scored it. The results were provisional and are final now.",
    );
    expect(resultsImportMessage({ ...base, provisional: false, wasProvisional: false })).toBe(
      "Imported 1,200 results for Round 2 and scored it. The results are final.",
    );
  });
});
