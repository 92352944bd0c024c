/**
 * Managing partners after they are added: origins, name, disable/enable, delete. Every write is
 * audited; CORS and the iframe lookups see each change at once (they read the table per request).
 */
import { PARTNER_ORIGINS_MAX } from "@game/core";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import { auditLog, embedTokens, partners } from "../schema/index.js";
import { createTestDb } from "../testing.js";
import { type AdminActor, CLI_ACTOR, listAudit } from "./audit.js";
import { createEmbedHandoff } from "./embed-tokens.js";
import {
  addPartner,
  changePartnerOrigins,
  deletePartner,
  disablePartner,
  enablePartner,
  getPartner,
  listPartners,
  renamePartner,
} from "./partners.js";
import { getPartnerByKey, isPartnerOrigin } from "./public-api.js";
import { createAccount } from "./users.js";

let h: DbHandle;
const web: AdminActor = { actor: "web:boss@example.com", actorId: null };

beforeAll(async () => {
  h = await createTestDb();
});
afterAll(() => h.close());
// An origin belongs to one partner: each test starts without partners (the audit log stays).
beforeEach(async () => {
  await h.db.delete(partners);
});

let n = 0;
async function partner(origins = ["https://a.example", "https://b.example"]) {
  n += 1;
  return addPartner(h.db, { name: `Partner ${n}`, origins }, CLI_ACTOR);
}

async function auditOf(id: number) {
  const rows = await h.db
    .select()
    .from(auditLog)
    .where(eq(auditLog.target, `partner:${id}`));
  return rows.sort((a, b) => a.id - b.id).map((r) => ({ action: r.action, detail: r.detail }));
}

async function player() {
  n += 1;
  return createAccount(h.db, {
    username: `reader${n}`,
    email: `reader${n}@example.com`,
    passwordHash: "test:unusable",
  });
}

async function tokensOf(partnerId: number) {
  return h.db
    .select({ origin: embedTokens.origin })
    .from(embedTokens)
    .where(eq(embedTokens.partnerId, partnerId));
}

describe("changePartnerOrigins", () => {
  it("adds and removes origins, normalised, and records what changed", async () => {
    const p = await partner();
    const r = await changePartnerOrigins(
      h.db,
      p.id,
      { add: "HTTPS://C.example/", remove: ["https://a.example/"] },
      web,
    );
    expect(r).toMatchObject({
      changed: true,
      added: ["https://c.example"],
      removed: ["https://a.example"],
    });
    expect(r.partner.origins).toEqual(["https://b.example", "https://c.example"]);
    expect((await getPartner(h.db, p.id))?.origins).toEqual(r.partner.origins);
    expect((await auditOf(p.id)).at(-1)).toEqual({
      action: "partner.origins",
      detail: {
        added: ["https://c.example"],
        removed: ["https://a.example"],
        origins: ["https://b.example", "https://c.example"],
      },
    });
    const [entry] = (await listAudit(h.db, { action: "partner.origins" })).rows;
    expect(entry?.actor).toBe("web:boss@example.com");
  });

  it("replaces the whole list", async () => {
    const p = await partner();
    const r = await changePartnerOrigins(
      h.db,
      p.id,
      { set: "https://b.example\nhttps://new.example" },
      CLI_ACTOR,
    );
    expect(r.partner.origins).toEqual(["https://b.example", "https://new.example"]);
    expect(r.added).toEqual(["https://new.example"]);
    expect(r.removed).toEqual(["https://a.example"]);
  });

  it("records nothing when nothing changes (already there, or only reordered)", async () => {
    const p = await partner();
    const before = await auditOf(p.id);
    const again = await changePartnerOrigins(h.db, p.id, { add: "https://a.example" }, CLI_ACTOR);
    expect(again.changed).toBe(false);
    const reordered = await changePartnerOrigins(
      h.db,
      p.id,
      { set: ["https://b.example", "https://a.example"] },
      CLI_ACTOR,
    );
    expect(reordered.changed).toBe(false);
    expect(await auditOf(p.id)).toEqual(before);
  });

  it("refuses bad input and leaves the partner as it was", async () => {
    const p = await partner();
    const refused: [Parameters<typeof changePartnerOrigins>[2], RegExp][] = [
      [{ add: "https://a.example/embed" }, /is not a web origin/],
      [{ set: "ftp://a.example" }, /is not a web origin/],
      [{ remove: "https://zzz.example" }, /^https:\/\/zzz\.example is not an origin of Partner/],
      [{ remove: "https://y.example https://z.example" }, /are not origins of/],
      [{ remove: "https://a.example https://b.example" }, /at least one origin.*disable/],
      [{ set: "" }, /at least one origin/],
      [{ add: "" }, /^Give origins to add or remove\.$/],
      [
        {
          add: Array.from({ length: PARTNER_ORIGINS_MAX }, (_, i) => `https://s${i}.example`),
        },
        /At most 20 origins/,
      ],
    ];
    for (const [change, message] of refused) {
      await expect(changePartnerOrigins(h.db, p.id, change, CLI_ACTOR)).rejects.toThrow(message);
    }
    expect((await getPartner(h.db, p.id))?.origins).toEqual(p.origins);
    expect(await auditOf(p.id)).toHaveLength(1);
    await expect(
      changePartnerOrigins(h.db, 999_999, { add: "https://x.example" }, CLI_ACTOR),
    ).rejects.toMatchObject({ code: "not-found", message: "No partner with id 999999." });
  });

  it("stops CORS for a removed origin at once and ends iframe sign-ins made there", async () => {
    const p = await partner(["https://keep.example", "https://drop.example"]);
    const reader = await player();
    for (const origin of p.origins) {
      await createEmbedHandoff(h.db, { accountId: reader.id, partnerId: p.id, origin });
    }
    expect(await isPartnerOrigin(h.db, "https://drop.example")).toBe(true);
    await changePartnerOrigins(h.db, p.id, { remove: "https://drop.example" }, CLI_ACTOR);
    expect(await isPartnerOrigin(h.db, "https://drop.example")).toBe(false);
    expect(await isPartnerOrigin(h.db, "https://keep.example")).toBe(true);
    expect((await getPartnerByKey(h.db, p.publishableKey))?.origins).toEqual([
      "https://keep.example",
    ]);
    expect(await tokensOf(p.id)).toEqual([{ origin: "https://keep.example" }]);
  });

  it("applies concurrent edits one after the other (none is lost)", async () => {
    const p = await partner(["https://a.example"]);
    await Promise.all(
      ["https://c1.example", "https://c2.example", "https://c3.example"].map((o) =>
        changePartnerOrigins(h.db, p.id, { add: o }, CLI_ACTOR),
      ),
    );
    expect([...(await getPartner(h.db, p.id))!.origins].sort()).toEqual([
      "https://a.example",
      "https://c1.example",
      "https://c2.example",
      "https://c3.example",
    ]);
  });
});

describe("one partner per origin", () => {
  it("refuses a second claim on an origin, naming its owner, on add and on origin edits", async () => {
    const owner = await partner(["https://taken.example", "https://b.example"]);
    await expect(
      addPartner(h.db, { name: "Copycat", origins: "https://TAKEN.example/" }, CLI_ACTOR),
    ).rejects.toThrow(
      `https://taken.example already belongs to ${owner.name} (partner ${owner.id}): an origin belongs to one partner.`,
    );
    const other = await partner(["https://other.example"]);
    for (const change of [
      { add: "https://taken.example" },
      { set: "https://other.example https://b.example" },
    ]) {
      await expect(changePartnerOrigins(h.db, other.id, change, CLI_ACTOR)).rejects.toThrow(
        new RegExp(`already belongs to ${owner.name} \\(partner ${owner.id}\\)`),
      );
    }
    expect((await getPartner(h.db, other.id))?.origins).toEqual(["https://other.example"]);
    expect((await listPartners(h.db)).map((p) => p.name).sort()).toEqual(
      [owner.name, other.name].sort(),
    );
  });

  it("counts a disabled partner's origins as taken (enabling it again must not clash)", async () => {
    const off = await partner(["https://resting.example"]);
    await disablePartner(h.db, off.id, CLI_ACTOR);
    await expect(partner(["https://resting.example"])).rejects.toThrow(/already belongs to/);
    // Once deleted, the origin is free again.
    await deletePartner(h.db, off.id, CLI_ACTOR);
    expect((await partner(["https://resting.example"])).origins).toEqual([
      "https://resting.example",
    ]);
  });

  it("is enforced by the database too, also for claims made at the same moment", async () => {
    await expect(
      h.db
        .insert(partners)
        .values({ name: "Raw", publishableKey: "pk_raw_1", origins: ["https://raw.example"] }),
    ).resolves.toBeDefined();
    await expect(
      h.db
        .insert(partners)
        .values({ name: "Raw 2", publishableKey: "pk_raw_2", origins: ["https://raw.example"] }),
    ).rejects.toThrow();
    const claims = await Promise.allSettled(
      ["First", "Second", "Third"].map((name) =>
        addPartner(h.db, { name, origins: "https://race.example" }, CLI_ACTOR),
      ),
    );
    expect(claims.filter((c) => c.status === "fulfilled")).toHaveLength(1);
    for (const c of claims.filter((c) => c.status === "rejected")) {
      expect(String((c as PromiseRejectedResult).reason)).toMatch(
        /https:\/\/race\.example already belongs to (First|Second|Third)/,
      );
    }
  });

  it("refuses wildcard origins with a clear message", async () => {
    await expect(
      addPartner(h.db, { name: "Wild", origins: "https://*.example.com" }, CLI_ACTOR),
    ).rejects.toThrow(/wildcard origins are not supported/);
  });
});

describe("renamePartner", () => {
  it("renames with the add form's rules, audited once", async () => {
    const p = await partner();
    const r = await renamePartner(h.db, p.id, "  Trail Weekly ", web);
    expect(r).toMatchObject({ changed: true, partner: { name: "Trail Weekly" } });
    expect((await renamePartner(h.db, p.id, "Trail Weekly", web)).changed).toBe(false);
    await expect(renamePartner(h.db, p.id, " ", web)).rejects.toThrow("Give the partner a name.");
    await expect(renamePartner(h.db, p.id, "x".repeat(81), web)).rejects.toThrow(/at most 80/);
    expect((await auditOf(p.id)).slice(1)).toEqual([
      { action: "partner.rename", detail: { from: p.name, to: "Trail Weekly" } },
    ]);
  });
});

describe("disablePartner / enablePartner", () => {
  it("keeps the key and origins but takes away CORS, the iframe lookup and sign-ins", async () => {
    const p = await partner(["https://off.example"]);
    const reader = await player();
    await createEmbedHandoff(h.db, {
      accountId: reader.id,
      partnerId: p.id,
      origin: "https://off.example",
    });
    const at = new Date("2027-01-02T03:04:05Z");
    const r = await disablePartner(h.db, p.id, web, at);
    expect(r.changed).toBe(true);
    expect(r.partner).toMatchObject({
      publishableKey: p.publishableKey,
      origins: ["https://off.example"],
      disabledAt: at,
    });
    expect(await isPartnerOrigin(h.db, "https://off.example")).toBe(false);
    expect(await getPartnerByKey(h.db, p.publishableKey)).toBeUndefined();
    expect(await tokensOf(p.id)).toEqual([]);
    expect((await disablePartner(h.db, p.id, web)).changed).toBe(false);
    // Still listed for admins, with its state.
    expect((await listPartners(h.db)).find((x) => x.id === p.id)?.disabledAt).toEqual(at);

    const back = await enablePartner(h.db, p.id, web);
    expect(back).toMatchObject({ changed: true, partner: { disabledAt: null } });
    expect(await isPartnerOrigin(h.db, "https://off.example")).toBe(true);
    expect((await getPartnerByKey(h.db, p.publishableKey))?.id).toBe(p.id);
    expect((await enablePartner(h.db, p.id, web)).changed).toBe(false);
    expect((await auditOf(p.id)).map((a) => a.action)).toEqual([
      "partner.add",
      "partner.disable",
      "partner.enable",
    ]);
  });

  it("stops an origin that an enabled partner also lists (rows from before one owner per origin)", async () => {
    const one = await partner(["https://shared.example", "https://own.example"]);
    // Such rows can only predate the rule: write the second one past the trigger.
    await h.db.transaction(async (tx) => {
      await tx.execute(sql`alter table partners disable trigger partners_origin_owner`);
      await tx.insert(partners).values({
        name: "Old twin",
        publishableKey: "pk_old_twin",
        origins: ["https://shared.example"],
      });
      await tx.execute(sql`alter table partners enable trigger partners_origin_owner`);
    });
    expect(await isPartnerOrigin(h.db, "https://shared.example")).toBe(true);
    await disablePartner(h.db, one.id, CLI_ACTOR);
    expect(await isPartnerOrigin(h.db, "https://shared.example")).toBe(false);
    expect(await isPartnerOrigin(h.db, "https://own.example")).toBe(false);
    await enablePartner(h.db, one.id, CLI_ACTOR);
    expect(await isPartnerOrigin(h.db, "https://shared.example")).toBe(true);
    // The twin can still be renamed and edited: only origins new to it are checked.
    const [twin] = await h.db.select().from(partners).where(eq(partners.name, "Old twin"));
    await renamePartner(h.db, twin!.id, "Old twin renamed", CLI_ACTOR);
    await changePartnerOrigins(h.db, twin!.id, { add: "https://twin.example" }, CLI_ACTOR);
  });

  it("knows no missing partner", async () => {
    await expect(disablePartner(h.db, 424_242, CLI_ACTOR)).rejects.toMatchObject({
      code: "not-found",
    });
    await expect(enablePartner(h.db, 0, CLI_ACTOR)).rejects.toMatchObject({ code: "not-found" });
  });
});

describe("deletePartner", () => {
  it("refuses an enabled partner, deletes a disabled one for good, and keeps the record", async () => {
    const p = await partner(["https://gone.example"]);
    await expect(deletePartner(h.db, p.id, web)).rejects.toThrow(
      `Disable ${p.name} before deleting it (deleting cannot be undone).`,
    );
    expect(await getPartner(h.db, p.id)).toBeDefined();

    await disablePartner(h.db, p.id, web);
    const reader = await player();
    await h.db.insert(embedTokens).values({
      id: `hash-of-${p.id}`,
      kind: "session",
      accountId: reader.id,
      partnerId: p.id,
      origin: "https://gone.example",
      expiresAt: new Date(Date.now() + 60_000),
    });
    const gone = await deletePartner(h.db, p.id, web);
    expect(gone.id).toBe(p.id);
    expect(await getPartner(h.db, p.id)).toBeUndefined();
    expect(await tokensOf(p.id)).toEqual([]);
    expect((await auditOf(p.id)).at(-1)).toEqual({
      action: "partner.delete",
      detail: { name: p.name, publishableKey: p.publishableKey, origins: p.origins },
    });
    await expect(deletePartner(h.db, p.id, web)).rejects.toMatchObject({ code: "not-found" });
  });
});
