import { events, listPublicRacers, raceResults, settleEvent } from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { testContext } from "../../tests/support/context";
import { loader as openApiLoader } from "./api.v1.openapi[.]json";
import { loader as roundsLoader } from "./api.v1.racers.$id.rounds";

let h: DbHandle;
let ip = 0;
beforeAll(async () => {
  h = await createTestDb({ seed: true });
});
afterAll(() => h.close());

async function get(
  loader: (a: LoaderFunctionArgs) => Promise<Response>,
  path: string,
  params = {},
) {
  ip += 1;
  const context = { ...testContext(h.db), clientIp: `10.2.0.${ip}` };
  const res = await loader({ request: new Request(`http://localhost${path}`), context, params });
  return { res, json: await res.json() };
}

it("lists a racer's rounds (price, start, result, points once scored) as the OpenAPI says", async () => {
  const [racer] = await listPublicRacers(h.db, 5);
  const [e5] = await h.db.select().from(events).where(eq(events.id, 5));
  await h.db.insert(raceResults).values({
    eventId: 5,
    racerId: racer!.id,
    category: racer!.category,
    status: "finished",
    position: 1,
  });
  await settleEvent(h.db, 5, { now: new Date(e5!.startsAt.getTime() + 3_600_000) });

  const { res, json } = await get(roundsLoader, `/api/v1/racers/${racer!.id}/rounds`, {
    id: String(racer!.id),
  });
  expect(res.status).toBe(200);
  expect(json).toEqual({
    racerId: racer!.id,
    data: [
      {
        eventId: 5,
        eventName: e5!.name,
        startsAt: e5!.startsAt.toISOString(),
        racerId: racer!.id,
        price: racer!.price,
        withdrawn: false,
        result: 1,
        points: expect.any(Number),
      },
    ],
  });
  expect(json.data[0].points).toBeGreaterThan(0);

  const spec = (await get(openApiLoader, "/api/v1/openapi.json")).json;
  const schemas = spec.components.schemas;
  expect(Object.keys(json).sort()).toEqual(
    Object.keys(schemas.RacerRoundsResponse.properties).sort(),
  );
  expect(Object.keys(json.data[0]).sort()).toEqual(
    Object.keys(schemas.RacerRound.properties).sort(),
  );

  const missing = await get(roundsLoader, "/api/v1/racers/999999/rounds", { id: "999999" });
  expect(missing.res.status).toBe(404);
  expect(missing.json.error.code).toBe("racer_not_found");
  const bad = await get(roundsLoader, "/api/v1/racers/abc/rounds", { id: "abc" });
  expect(bad.res.status).toBe(400);
});
