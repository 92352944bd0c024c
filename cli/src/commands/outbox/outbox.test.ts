import { markMailFailed, markMailSent, recordMail } from "@game/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliTarget, cliTarget, runCli } from "../../test-support.js";

let t: CliTarget;
beforeAll(async () => {
  t = await cliTarget({ hold: true });
});
afterAll(() => t?.close());

describe("outbox list", () => {
  it("says so when nothing was sent", async () => {
    const r = await runCli(t, "outbox", "list");
    expect(r).toEqual({ code: 0, stdout: "No e-mails.\n", stderr: "" });
  });

  it("lists e-mails newest first with their status, as a table and as JSON, paged", async () => {
    const db = t.h!.db;
    const base = new Date("2026-06-01T09:00:00Z").getTime();
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const row = await recordMail(
        db,
        { to: `rider${i}@example.com`, subject: `Mail ${i}`, text: `Body ${i}` },
        new Date(base + i * 60_000),
      );
      ids.push(row.id);
    }
    await markMailSent(db, ids[4]!, new Date(base + 5 * 60_000));
    await markMailFailed(db, ids[3]!, "connect ECONNREFUSED\n  at stack");

    const table = await runCli(t, "outbox", "list");
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID +Created \(UTC\) +To +Subject +Status +Error$/);
    expect(lines[1]).toMatch(/2026-06-01 09:04 +rider4@example\.com +Mail 4 +sent$/);
    expect(lines[2]).toMatch(/rider3@example\.com +Mail 3 +failed +connect ECONNREFUSED$/);
    expect(lines[3]).toMatch(/rider2@example\.com +Mail 2 +stored$/);
    expect(lines).toHaveLength(6);
    expect(table.stderr).toBe("");

    const page = await runCli(t, "outbox", "list", "--limit", "2", "--page", "2", "--json");
    expect(page.code).toBe(0);
    expect(JSON.parse(page.stdout)).toEqual([
      expect.objectContaining({
        id: ids[2],
        to: "rider2@example.com",
        status: "stored",
        text: "Body 2",
      }),
      expect.objectContaining({ id: ids[1], to: "rider1@example.com", status: "stored" }),
    ]);
    expect(page.stderr).toBe("E-mails 3-4 of 5. Next: --page 3\n");

    const past = await runCli(t, "outbox", "list", "--page", "9");
    expect(past).toMatchObject({ code: 0, stdout: "No e-mails on page 9 (5 in all).\n" });
  });

  it("refuses a bad page or limit as wrong usage (exit 2)", async () => {
    for (const args of [
      ["--page", "0"],
      ["--limit", "abc"],
      ["--limit", "500"],
    ]) {
      const r = await runCli(t, "outbox", "list", ...args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/^error: option/);
    }
  });
});
