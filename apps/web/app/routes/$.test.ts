import { createTestDb, type DbHandle } from "@game/db/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { request, testContext } from "../../tests/support/context";
import { loader } from "./$";

let h: DbHandle;
beforeAll(async () => {
  h = await createTestDb({ seed: true });
});
afterAll(() => h.close());

it("answers an unknown path with the home screen's data and status 404", async () => {
  const result = (await loader({
    request: request("/no/such/page"),
    context: testContext(h.db),
    params: { "*": "no/such/page" },
  })) as unknown as { data: { events: unknown[] }; init: { status: number } };
  expect(result.init.status).toBe(404);
  expect(result.data.events).toHaveLength(12);
});
