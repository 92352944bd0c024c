/** The partner's stats on its manage panel of /admin/partners (docs/decisions/0092). */
import { addPartner, addPartnerStats, CLI_ACTOR } from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PARTNER_PAGE_DAYS, PartnerStats } from "~/features/partners/partner-stats";
import { cookieFor, makeUser, request, testContext } from "../../tests/support/context";
import { loader } from "./admin.partners";

let h: DbHandle;
let ctx: ReturnType<typeof testContext>;
let adminCookie: string;
const now = new Date("2026-04-10T09:00:00Z");

beforeAll(async () => {
  h = await createTestDb();
  ctx = testContext(h.db, { now: () => now });
  adminCookie = await cookieFor(ctx, await makeUser(h.db, { role: "admin" }));
});
afterAll(() => h.close());

const load = (q: string, cookie = adminCookie) =>
  loader({
    request: request(`/admin/partners${q}`, { cookie }),
    context: ctx,
    params: {},
  } as LoaderFunctionArgs);

describe("the partner's stats", () => {
  it("come with the manage panel: 14 UTC days, yesterday in words, a chart and a table", async () => {
    const p = await addPartner(
      h.db,
      { name: "Stats Page", origins: ["https://stats-page.example"] },
      CLI_ACTOR,
    );
    await addPartnerStats(h.db, [
      {
        partnerId: p.id,
        day: "2026-04-09",
        widgetLoads: 1,
        apiCalls: 1200,
        signIns: 3,
        teamSaves: 2,
      },
      { partnerId: p.id, day: "2026-03-28", widgetLoads: 99 },
      { partnerId: p.id, day: "2026-03-27", widgetLoads: 5000 },
    ]);
    const page = await load(`?partner=${p.id}`);
    expect(page.stats).toHaveLength(PARTNER_PAGE_DAYS);
    expect(page.stats[0]).toEqual({
      day: "2026-03-28",
      widgetLoads: 99,
      apiCalls: 0,
      signIns: 0,
      teamSaves: 0,
    });
    expect(page.stats.at(-2)).toEqual({
      day: "2026-04-09",
      widgetLoads: 1,
      apiCalls: 1200,
      signIns: 3,
      teamSaves: 2,
    });
    expect(page.stats.at(-1)?.day).toBe("2026-04-10");
    const list = await load("");
    expect(list.stats).toEqual([]);
    // The table of partners: widget loads of the last 7 days (4 to 10 April).
    expect(list.partners.find((x) => x.id === p.id)?.weekLoads).toBe(1);

    const html = renderToStaticMarkup(<PartnerStats name={p.name} days={page.stats} />);
    expect(html).toContain(
      "<strong>Yesterday</strong> (Thursday 9 April 2026): 1 widget load, 1,200 API calls, 3 sign-ins, 2 teams saved.",
    );
    expect(html).toContain("Widget loads per day, last 14 days (UTC)");
    // The figures say what they are: what browsers report.
    expect(html).toContain(
      "Widget loads and API calls are what visitors&#x27; browsers report: a page view&#x27;s widgets count once",
    );
    expect(html).toContain(
      '<th scope="row"><time dateTime="2026-04-09">Thursday 9 April 2026</time></th><td class="num">1</td><td class="num">1,200</td>',
    );
  });

  it("are for admins only", async () => {
    const player = await cookieFor(ctx, await makeUser(h.db));
    const refused = await load("?partner=1", player).catch((thrown: unknown) => thrown);
    expect(refused).toBeInstanceOf(Response);
    expect((refused as Response).status).toBe(403);
  });
});
