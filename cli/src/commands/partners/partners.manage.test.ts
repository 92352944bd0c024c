import { addPartner, CLI_ACTOR, getPartner, isPartnerOrigin, listAudit, partners } from "@game/db";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type CliTarget, cliTarget, runCli } from "../../test-support.js";

let t: CliTarget;
beforeAll(async () => {
  t = await cliTarget({ hold: true });
});
afterAll(() => t?.close());
// An origin belongs to one partner: each test starts without partners (the audit log stays).
beforeEach(async () => {
  await t.h!.db.delete(partners);
});

const db = () => t.h!.db;
let n = 0;
const partner = (origins = ["https://a.example", "https://b.example"]) => {
  n += 1;
  return addPartner(db(), { name: `Site ${n}`, origins }, CLI_ACTOR);
};

describe("partners origins", () => {
  it("adds and removes origins, and CORS follows at once", async () => {
    const p = await partner();
    const r = await runCli(
      t,
      "partners",
      "origins",
      String(p.id),
      "--add",
      "https://C.example/",
      "--remove",
      "https://a.example",
    );
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      `Partner ${p.id} (${p.name}) now allows https://b.example, https://c.example (added https://c.example; removed https://a.example).\n`,
    );
    expect(await isPartnerOrigin(db(), "https://a.example")).toBe(false);
    expect(await isPartnerOrigin(db(), "https://c.example")).toBe(true);
    expect((await listAudit(db(), { action: "partner.origins" })).rows[0]?.target).toBe(
      `partner:${p.id}`,
    );
  });

  it("replaces the list with --set and prints JSON with --json", async () => {
    const p = await partner();
    const r = await runCli(
      t,
      "partners",
      "origins",
      String(p.id),
      "--set",
      "https://x.example",
      "https://y.example",
      "--json",
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      id: p.id,
      origins: ["https://x.example", "https://y.example"],
      disabledAt: null,
    });
  });

  it("says when nothing changed", async () => {
    const p = await partner();
    const r = await runCli(t, "partners", "origins", String(p.id), "--add", "https://a.example");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      `Partner ${p.id} (${p.name}) is unchanged: https://a.example, https://b.example.\n`,
    );
  });

  it("fails (exit 1) on a bad origin, an unlisted one, the last one, or an unknown partner", async () => {
    const p = await partner(["https://only.example"]);
    const id = String(p.id);
    const cases: [string[], string][] = [
      [
        ["--add", "https://x.example/embed"],
        'error: "https://x.example/embed" is not a web origin (like https://news.example).\n',
      ],
      [
        ["--remove", "https://other.example"],
        `error: https://other.example is not an origin of ${p.name}.\n`,
      ],
      [
        ["--remove", "https://only.example"],
        "error: A partner needs at least one origin: to stop every embed, disable the partner.\n",
      ],
    ];
    for (const [args, stderr] of cases) {
      const r = await runCli(t, "partners", "origins", id, ...args);
      expect(r.code, args.join(" ")).toBe(1);
      expect(r.stderr).toBe(stderr);
      expect(r.stdout).toBe("");
    }
    const missing = await runCli(t, "partners", "origins", "99999", "--add", "https://x.example");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe("error: No partner with id 99999.\n");
    expect((await getPartner(db(), p.id))?.origins).toEqual(["https://only.example"]);
  });

  it("is wrong usage (exit 2) without a change, with --set and --add, or with a bad id", async () => {
    for (const args of [
      ["origins", "1"],
      ["origins", "1", "--set", "https://a.example", "--add", "https://b.example"],
      ["origins", "abc", "--add", "https://a.example"],
      ["rename", "0", "New"],
      ["disable"],
    ]) {
      const r = await runCli(t, "partners", ...args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(/error/);
      expect(r.stdout).toBe("");
    }
  });
});

describe("partners rename", () => {
  it("renames, and refuses an empty name (exit 1)", async () => {
    const p = await partner();
    const r = await runCli(t, "partners", "rename", String(p.id), "Trail Weekly");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`Partner ${p.id} is now named Trail Weekly.\n`);
    const same = await runCli(t, "partners", "rename", String(p.id), "Trail Weekly");
    expect(same.stdout).toBe(`Partner ${p.id} already was named Trail Weekly.\n`);
    const empty = await runCli(t, "partners", "rename", String(p.id), " ");
    expect(empty.code).toBe(1);
    expect(empty.stderr).toBe("error: Give the partner a name.\n");
  });
});

describe("partners disable, enable and delete", () => {
  it("disables (listed as disabled, no CORS), enables again, then deletes only with --yes", async () => {
    const p = await partner(["https://off.example"]);
    const id = String(p.id);
    const off = await runCli(t, "partners", "disable", id);
    expect(off.code).toBe(0);
    expect(off.stdout).toBe(
      `Partner ${p.id} (${p.name}) is disabled: its origins get no CORS and its iframe is refused.\n`,
    );
    expect(await isPartnerOrigin(db(), "https://off.example")).toBe(false);
    const list = await runCli(t, "partners", "list");
    expect(list.stdout).toMatch(new RegExp(`${p.name}\\s+disabled\\s+${p.publishableKey}`));
    expect((await runCli(t, "partners", "disable", id)).stdout).toMatch(/already was disabled/);

    const on = await runCli(t, "partners", "enable", id, "--json");
    expect(on.code).toBe(0);
    expect(JSON.parse(on.stdout)).toMatchObject({
      publishableKey: p.publishableKey,
      disabledAt: null,
    });
    expect(await isPartnerOrigin(db(), "https://off.example")).toBe(true);

    const live = await runCli(t, "partners", "delete", id, "--yes");
    expect(live.code).toBe(1);
    expect(live.stderr).toBe(
      `error: Disable ${p.name} before deleting it (deleting cannot be undone).\n`,
    );

    await runCli(t, "partners", "disable", id);
    const unconfirmed = await runCli(t, "partners", "delete", id);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toBe(
      `error: deleting partner ${id} cannot be undone: add --yes (or use disable, which can).\n`,
    );
    expect(await getPartner(db(), p.id)).toBeDefined();

    const gone = await runCli(t, "partners", "delete", id, "--yes");
    expect(gone.code).toBe(0);
    expect(gone.stdout).toBe(`Partner ${p.id} (${p.name}) deleted.\n`);
    expect(await getPartner(db(), p.id)).toBeUndefined();
    expect(
      (await listAudit(db(), { limit: 200 })).rows
        .filter((a) => a.target === `partner:${p.id}`)
        .map((a) => [a.action, a.actor.split(":")[0]])
        .reverse(),
    ).toEqual([
      ["partner.add", "cli"],
      ["partner.disable", "cli"],
      ["partner.enable", "cli"],
      ["partner.disable", "cli"],
      ["partner.delete", "cli"],
    ]);
  });

  it("has terse help with an example", async () => {
    for (const sub of ["origins", "rename", "disable", "enable", "delete"]) {
      const r = await runCli(t, "partners", sub, "--help");
      expect(r.code, sub).toBe(0);
      expect(r.stdout, sub).toMatch(/\nExample:\n {2}\$ game-admin partners /);
    }
  });
});
