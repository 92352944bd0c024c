/**
 * Dates on the pages (docs/decisions/0144-dates-and-time-zones.md): in English whatever language
 * the browser asks for, in the reader's time zone (its cookie), the zone named, the same format on
 * every page; UTC, named, until the browser has said its zone. Pages are rendered as the server
 * renders them (loader, then the route's component), before any script runs.
 */
import { getUserById } from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import type { LoaderFunctionArgs } from "@remix-run/node";
import type { ComponentType } from "react";
import { renderToString } from "react-dom/server";
import {
  createStaticHandler,
  createStaticRouter,
  StaticRouterProvider,
} from "react-router-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookieFor, makeUser, testContext } from "../../tests/support/context";
import * as root from "../root";
import { timeZoneFromCookies } from "../utils/time-zone";
import * as home from "./_index";
import * as about from "./about";
import * as eventHome from "./game.$id";
import * as teamSetup from "./team-setup";

let h: DbHandle;
let ctx: ReturnType<typeof testContext>;
let session: string;
let playerId: number;

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  // Round 1 (event 5) is open: it starts 18 April 2027, 16:00 UTC and locks 12 hours earlier.
  ctx = testContext(h.db, { now: () => new Date("2027-04-10T12:00:00Z") });
  const player = await makeUser(h.db);
  playerId = player.id;
  session = await cookieFor(ctx, player);
});
afterAll(() => h.close());

type RouteModule = {
  loader: (args: LoaderFunctionArgs) => unknown;
  default: ComponentType;
};

/** The page's text as the server sends it, for a French browser with these cookies. */
async function page(
  route: RouteModule,
  path: string,
  cookies: string[],
  pattern = path.split("?")[0]!,
): Promise<string> {
  const handler = createStaticHandler([
    {
      id: "page",
      path: pattern,
      loader: async ({ request, params }) =>
        (await route.loader({ request, params, context: ctx })) as object,
      Component: route.default,
    },
  ]);
  const request = new Request(`http://localhost${path}`, {
    headers: {
      "Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5",
      Cookie: cookies.join("; "),
    },
  });
  const context = await handler.query(request);
  if (context instanceof Response) throw new Error(`${path} answered ${context.status}`);
  const html = renderToString(
    <StaticRouterProvider
      router={createStaticRouter(handler.dataRoutes, context)}
      context={context}
      hydrate={false}
    />,
  );
  return html
    .replace(/<[^>]+>/g, "")
    .replace(/&#x27;/g, "'")
    .replace(/<!-- -->/g, "");
}

const PARIS = "gf_tz=Europe%2FParis";

describe("dates on the pages", () => {
  it("team setup: the lock line is English, in Paris time, the zone named", async () => {
    const text = await page(teamSetup, "/team-setup?game=5", [session, PARIS]);
    expect(text).toContain("Last changes by Sunday 18 April 2027, 06:00 CEST.");
    expect(text).not.toMatch(/dimanche|avril|UTC\+2/);
  });

  it("about: the open round's lock in the same words", async () => {
    const text = await page(about, "/about", [PARIS]);
    expect(text).toContain("teams lock on Sunday 18 April 2027, 06:00 CEST.");
    expect(text).not.toMatch(/dimanche|avril/);
  });

  it("the event page and the home page write race days the same way", async () => {
    const event = await page(eventHome, "/game/5", [session, PARIS], "/game/:id");
    expect(event).toContain("Race day Sunday 18 April 2027, 18:00 CEST");
    expect(event).toContain("Last changes by Sunday 18 April 2027, 06:00 CEST.");
    const cards = await page(home, "/", [PARIS]);
    expect(cards).toContain("Sunday 18 April 2027, 18:00 CEST");
  });

  it("writes UTC, named, until the browser has said its zone (or when the cookie is no zone)", async () => {
    for (const cookies of [[session], [session, "gf_tz=Mars%2FOlympus"], [session, "gf_tz=%E0"]]) {
      const text = await page(teamSetup, "/team-setup?game=5", cookies);
      expect(text, cookies.join("; ")).toContain(
        "Last changes by Sunday 18 April 2027, 04:00 UTC.",
      );
    }
    const text = await page(about, "/about", ["gf_tz=America%2FLos_Angeles"]);
    expect(text).toContain("teams lock on Saturday 17 April 2027, 21:00 PDT.");
  });
});

describe("the time-zone cookie", () => {
  it("is remembered on the signed-in player's account, for their e-mails", async () => {
    const visit = (cookies: string[]) =>
      root.loader({
        request: new Request("http://localhost/", { headers: { Cookie: cookies.join("; ") } }),
        params: {},
        context: ctx,
      });
    const zone = async () => (await getUserById(h.db, playerId))?.timeZone;
    await visit([session]);
    expect(await zone()).toBeNull();
    await visit([session, PARIS]);
    expect(await zone()).toBe("Europe/Paris");
    // A visitor's cookie, or one naming no zone, changes nothing.
    await visit(["gf_tz=America%2FLos_Angeles"]);
    await visit([session, "gf_tz=Nowhere"]);
    expect(await zone()).toBe("Europe/Paris");
  });

  it("names a known zone, or nothing", () => {
    expect(timeZoneFromCookies("a=1; gf_tz=Europe%2FParis; b=2")).toBe("Europe/Paris");
    expect(timeZoneFromCookies("gf_tz=UTC")).toBe("UTC");
    expect(timeZoneFromCookies("gf_tz_old=Europe%2FParis")).toBeNull();
    expect(timeZoneFromCookies("gf_tz=Europe%2FNowhere")).toBeNull();
    expect(timeZoneFromCookies("gf_tz=%")).toBeNull();
    expect(timeZoneFromCookies(null)).toBeNull();
  });
});
