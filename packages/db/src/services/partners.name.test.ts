import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import { createTestDb } from "../testing.js";
import { AdminActionError, CLI_ACTOR } from "./audit.js";
import { addPartner, listPartners } from "./partners.js";

let h: DbHandle;
beforeAll(async () => {
  h = await createTestDb();
});
afterAll(() => h.close());

describe("addPartner", () => {
  it("refuses a second partner of the same name, whatever its case", async () => {
    const first = await addPartner(
      h.db,
      { name: "Pinkbike", origins: "https://www.pinkbike.example" },
      CLI_ACTOR,
    );
    const again = addPartner(h.db, { name: "PINKBIKE", origins: "https://pb.example" }, CLI_ACTOR);
    await expect(again).rejects.toThrow(AdminActionError);
    await expect(
      addPartner(h.db, { name: "pinkbike", origins: "https://other.example" }, CLI_ACTOR),
    ).rejects.toThrow(`Partner ${first.id} is already named "Pinkbike"`);
    expect(await listPartners(h.db)).toHaveLength(1);
  });
});
