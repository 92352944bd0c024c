import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import { createTestDb } from "../testing.js";
import { CLI_ACTOR, listAudit } from "./audit.js";
import { addPartner, listPartners } from "./partners.js";

let h: DbHandle;
beforeAll(async () => {
  h = await createTestDb();
});
afterAll(() => h.close());

describe("addPartner", () => {
  it("stores the partner with a fresh publishable key and records it", async () => {
    const a = await addPartner(
      h.db,
      { name: "Pinkbike-ish", origins: "https://pb.example" },
      CLI_ACTOR,
    );
    const b = await addPartner(
      h.db,
      { name: "Another", origins: ["https://b.example"] },
      CLI_ACTOR,
    );
    expect(a.publishableKey).toMatch(/^pk_[A-Za-z0-9_-]{24}$/);
    expect(a.publishableKey).not.toBe(b.publishableKey);
    expect(a.origins).toEqual(["https://pb.example"]);
    expect((await listPartners(h.db)).map((p) => p.name)).toEqual(["Another", "Pinkbike-ish"]);
    const { rows } = await listAudit(h.db, { action: "partner.add" });
    expect(rows).toHaveLength(2);
  });

  it("refuses invalid input and writes nothing", async () => {
    const before = (await listPartners(h.db)).length;
    await expect(addPartner(h.db, { name: "x", origins: "nope" }, CLI_ACTOR)).rejects.toThrow(
      /not a web origin/,
    );
    expect(await listPartners(h.db)).toHaveLength(before);
  });
});
