import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import { createTestDb } from "../testing.js";
import { AUDIT_ACTIONS, CLI_ACTOR, cliActor, listAudit, recordAudit, webActor } from "./audit.js";

let h: DbHandle;
beforeAll(async () => {
  h = await createTestDb();
});
afterAll(() => h.close());

describe("audit log", () => {
  it("names the web admin by e-mail and the CLI as cli", () => {
    expect(webActor({ id: 7, email: "a@example.com" })).toEqual({
      actor: "web:a@example.com",
      actorId: 7,
    });
    expect(CLI_ACTOR).toEqual({ actor: "cli", actorId: null });
  });

  it("names the CLI by the OS user who ran it, or plain cli without one", () => {
    expect(cliActor("alice")).toEqual({ actor: "cli:alice", actorId: null });
    expect(cliActor(" Jo Smith ")).toEqual({ actor: "cli:Jo Smith", actorId: null });
    expect(cliActor("ev\u001b[2Jil")).toEqual({ actor: "cli:ev[2Jil", actorId: null });
    for (const none of [undefined, null, "", "  ", "\u0007"]) {
      expect(cliActor(none)).toEqual(CLI_ACTOR);
    }
  });

  it("lists newest first, paged, filtered by action", async () => {
    for (let i = 0; i < 5; i++) {
      await recordAudit(h.db, CLI_ACTOR, i % 2 ? "user.block" : "user.accept", `t${i}`, { i });
    }
    const page = await listAudit(h.db, { limit: 2 });
    expect(page.total).toBe(5);
    expect(page.rows.map((r) => r.target)).toEqual(["t4", "t3"]);
    expect((await listAudit(h.db, { limit: 2, offset: 4 })).rows.map((r) => r.target)).toEqual([
      "t0",
    ]);
    const odd = await listAudit(h.db, { action: "user.block" });
    expect(odd.rows.map((r) => r.detail)).toEqual([{ i: 3 }, { i: 1 }]);
    expect(odd.total).toBe(2);
  });

  it("names every action once (the dashboard's filter lists them)", () => {
    expect(new Set(AUDIT_ACTIONS).size).toBe(AUDIT_ACTIONS.length);
    for (const a of AUDIT_ACTIONS) expect(a).toMatch(/^[a-z]+\.[a-z-]+$/);
  });
});
