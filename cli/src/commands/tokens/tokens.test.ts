import { listAudit, verifyAdminToken } from "@game/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { currentActor } from "../../context.js";
import { type CliTarget, cliTarget, runCli } from "../../test-support.js";

let t: CliTarget;
beforeAll(async () => {
  t = await cliTarget({ hold: true });
});
afterAll(() => t?.close());

describe("tokens", () => {
  let token: string;

  it("creates a token and prints it alone on stdout, with how to use it on stderr", async () => {
    const r = await runCli(t, "tokens", "create", "--name", "Timing");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^gfa_[A-Za-z0-9_-]{43}\n$/);
    expect(r.stderr).toBe(
      "Token timing created. It is shown once, now: send it as `Authorization: Bearer <token>` with POST /api/v1/admin/events/{id}/results.\n",
    );
    token = r.stdout.trim();
    expect(await verifyAdminToken(t.h!.db, token)).toBe("timing");
    const { rows } = await listAudit(t.h!.db, { action: "token.create" });
    expect(rows).toMatchObject([{ actor: currentActor().actor, target: "token:timing" }]);
  });

  it("refuses a taken or bad name (exit 1) and a missing --name (exit 2)", async () => {
    expect(await runCli(t, "tokens", "create", "--name", "timing")).toEqual({
      code: 1,
      stdout: "",
      stderr: "error: There is already a token named timing.\n",
    });
    const bad = await runCli(t, "tokens", "create", "--name", "no spaces");
    expect(bad).toMatchObject({ code: 1, stdout: "" });
    expect(bad.stderr).toMatch(/^error: A token name is 1-64 letters/);
    const missing = await runCli(t, "tokens", "create");
    expect(missing).toMatchObject({ code: 2, stdout: "" });
    expect(missing.stderr).toContain("required option '--name <name>' not specified");
  });

  it("lists tokens without the tokens themselves", async () => {
    const r = await runCli(t, "tokens", "list");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const [head, row, end] = r.stdout.split("\n");
    expect(head).toMatch(/^Name\s+Created\s+By\s+Last used\s+Revoked$/);
    // Verified above: used once, not revoked.
    expect(row).toMatch(
      /^timing\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+cli\S*\s+\d{4}-\d\d-\d\d \d\d:\d\d$/,
    );
    expect(end).toBe("");
    expect(r.stdout).not.toContain(token);
    const json = await runCli(t, "tokens", "list", "--json");
    expect(JSON.parse(json.stdout)).toEqual([
      {
        name: "timing",
        createdAt: expect.any(String),
        createdBy: currentActor().actor,
        lastUsedAt: expect.any(String),
        revokedAt: null,
      },
    ]);
  });

  it("revokes a token, which then never works; an unknown or revoked name exits 1", async () => {
    const r = await runCli(t, "tokens", "revoke", "timing");
    expect(r).toEqual({
      code: 0,
      stdout: "Token timing is revoked: it no longer works.\n",
      stderr: "",
    });
    expect(await verifyAdminToken(t.h!.db, token)).toBeNull();
    const [row] = JSON.parse((await runCli(t, "tokens", "list", "--json")).stdout);
    expect(row.revokedAt).toEqual(expect.any(String));
    const noLive = "error: there is no live token named timing (see: game-admin tokens list)\n";
    expect(await runCli(t, "tokens", "revoke", "timing")).toEqual({
      code: 1,
      stdout: "",
      stderr: noLive,
    });
    expect(await runCli(t, "tokens", "revoke", "nobody")).toMatchObject({
      code: 1,
      stderr: "error: there is no live token named nobody (see: game-admin tokens list)\n",
    });
    const list = await runCli(t, "tokens", "list");
    expect(list.stdout.split("\n")[1]).toMatch(/\s\d{4}-\d\d-\d\d \d\d:\d\d$/);
  });
});
