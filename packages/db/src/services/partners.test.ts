import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import { createTestDb } from "../testing.js";
import { CLI_ACTOR, listAudit } from "./audit.js";
import { addPartner, listPartners, parseOrigin, parsePartnerInput } from "./partners.js";

let h: DbHandle;
beforeAll(async () => {
  h = await createTestDb();
});
afterAll(() => h.close());

describe("parseOrigin", () => {
  it("keeps exact web origins", () => {
    expect(parseOrigin("https://News.Example/")).toBe("https://news.example");
    expect(parseOrigin(" http://localhost:8080 ")).toBe("http://localhost:8080");
    expect(parseOrigin("https://a.example:443")).toBe("https://a.example");
  });

  it("refuses anything that is not an origin", () => {
    for (const bad of [
      "",
      "news.example",
      "ftp://news.example",
      "https://news.example/embed",
      "https://news.example/?x=1",
      "https://user:pw@news.example",
      "javascript:alert(1)",
    ]) {
      expect(parseOrigin(bad)).toBeNull();
    }
  });
});

describe("parsePartnerInput", () => {
  it("accepts a name and origins separated by spaces, commas or lines, deduplicated", () => {
    expect(
      parsePartnerInput({
        name: "  MTB News ",
        origins: "https://mtb.example\nhttps://MTB.example/, https://www.mtb.example",
      }),
    ).toEqual({
      ok: true,
      value: { name: "MTB News", origins: ["https://mtb.example", "https://www.mtb.example"] },
    });
    expect(parsePartnerInput({ name: "A", origins: ["https://a.example"] }).ok).toBe(true);
  });

  it("explains what is wrong", () => {
    expect(parsePartnerInput({ name: " ", origins: "" })).toEqual({
      ok: false,
      errors: { name: "Give the partner a name.", origins: "Add at least one origin." },
    });
    const r = parsePartnerInput({ name: "x".repeat(81), origins: "https://ok.example /path" });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.errors.name).toMatch(/at most 80/);
      expect(r.errors.origins).toBe('"/path" is not a web origin (like https://news.example).');
    }
  });
});

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
