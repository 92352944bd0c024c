import { createAccount, createSession, getSession, getUserById } from "@game/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliTarget, cliTarget, runCli } from "../../test-support.js";

let t: CliTarget;
beforeAll(async () => {
  t = await cliTarget({ hold: true });
});
afterAll(() => t?.close());

const account = (username: string) =>
  createAccount(t.h!.db, {
    username,
    email: `${username}@example.com`,
    passwordHash: "test:unusable",
  });

describe("users", () => {
  it("makes the first admin, blocks and accepts by e-mail", async () => {
    const ada = await account("ada");
    const bob = await account("bob");
    const { token } = await createSession(t.h!.db, bob.id);

    const grant = await runCli(t, "users", "grant-admin", "ADA@example.com");
    expect(grant.stdout).toBe("ada@example.com is now an admin.\n");
    expect((await getUserById(t.h!.db, ada.id))?.role).toBe("admin");

    const block = await runCli(t, "users", "block", "bob@example.com");
    expect(block.code).toBe(0);
    expect(block.stdout).toBe("bob@example.com is blocked; their sessions have ended.\n");
    expect((await getUserById(t.h!.db, bob.id))?.accepted).toBe(false);
    expect(await getSession(t.h!.db, token)).toBeNull();

    const list = await runCli(t, "users", "list", "--json");
    expect(JSON.parse(list.stdout)).toMatchObject([
      { email: "ada@example.com", role: "admin", accepted: true },
      { email: "bob@example.com", role: "player", accepted: false },
    ]);
    const table = await runCli(t, "users", "list", "--search", "bob");
    expect(table.stdout).toMatch(/bob@example\.com +bob +player +blocked/);
    expect(table.stdout).not.toContain("ada@");

    const accept = await runCli(t, "users", "accept", "bob@example.com");
    expect(accept.stdout).toBe("bob@example.com is accepted and can log in.\n");
    expect((await getUserById(t.h!.db, bob.id))?.accepted).toBe(true);
  });

  it("revokes an admin, but never the last one", async () => {
    await account("cyd");
    await runCli(t, "users", "grant-admin", "cyd@example.com");
    const revoke = await runCli(t, "users", "revoke-admin", "cyd@example.com");
    expect(revoke).toMatchObject({ code: 0, stdout: "cyd@example.com is no longer an admin.\n" });
    const again = await runCli(t, "users", "revoke-admin", "cyd@example.com");
    expect(again.stdout).toBe("cyd@example.com was not an admin.\n");
    // ada (from the test above) is now the only admin.
    const last = await runCli(t, "users", "revoke-admin", "ada@example.com");
    expect(last).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "error: ada@example.com is the last admin and cannot be removed: grant another admin first.\n",
    });
  });

  it("fails with exit 1 for an unknown e-mail", async () => {
    const r = await runCli(t, "users", "grant-admin", "nobody@example.com");
    expect(r).toEqual({
      code: 1,
      stdout: "",
      stderr: "error: No user with e-mail nobody@example.com.\n",
    });
  });
});
