import { afterAll, beforeAll, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import { adminTokens, auditLog } from "../schema/index.js";
import { createTestDb } from "../testing.js";
import {
  AdminTokenError,
  createAdminToken,
  listAdminTokens,
  revokeAdminToken,
  verifyAdminToken,
} from "./admin-tokens.js";

let h: DbHandle;
const audit = { actor: "cli:ops", actorId: null };
beforeAll(async () => {
  h = await createTestDb();
});
afterAll(() => h.close());

it("a token works from its creation until it is revoked, and only its hash is stored", async () => {
  const { name, token } = await createAdminToken(h.db, { name: "Timing-EWS", audit });
  expect(name).toBe("timing-ews");
  expect(token).toMatch(/^gfa_[A-Za-z0-9_-]{43}$/);
  const [row] = await h.db.select().from(adminTokens);
  expect(JSON.stringify(row)).not.toContain(token.slice(4));

  const at = new Date("2027-04-19T12:00:00Z");
  expect(await verifyAdminToken(h.db, token, at)).toBe("timing-ews");
  expect(await verifyAdminToken(h.db, `${token}x`, at)).toBeNull();
  expect(await verifyAdminToken(h.db, token.slice(4), at)).toBeNull();
  expect(await verifyAdminToken(h.db, "", at)).toBeNull();
  expect((await listAdminTokens(h.db))[0]).toMatchObject({
    name: "timing-ews",
    createdBy: "cli:ops",
    lastUsedAt: at,
    revokedAt: null,
  });

  await expect(createAdminToken(h.db, { name: "timing-ews", audit })).rejects.toThrow(
    "There is already a token named timing-ews.",
  );
  await expect(createAdminToken(h.db, { name: "no spaces", audit })).rejects.toThrow(
    AdminTokenError,
  );

  expect(await revokeAdminToken(h.db, { name: "TIMING-EWS", audit })).toBe(true);
  expect(await revokeAdminToken(h.db, { name: "timing-ews", audit })).toBe(false);
  expect(await revokeAdminToken(h.db, { name: "nobody", audit })).toBe(false);
  expect(await verifyAdminToken(h.db, token, at)).toBeNull();
  // A revoked name stays taken: the audit log's "token:timing-ews" names one token only.
  await expect(createAdminToken(h.db, { name: "timing-ews", audit })).rejects.toThrow(
    AdminTokenError,
  );
  const log = await h.db.select().from(auditLog).orderBy(auditLog.id);
  expect(log.map((r) => [r.actor, r.action, r.target])).toEqual([
    ["cli:ops", "token.create", "token:timing-ews"],
    ["cli:ops", "token.revoke", "token:timing-ews"],
  ]);
});
