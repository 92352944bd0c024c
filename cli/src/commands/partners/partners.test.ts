import { listPartners } from "@game/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliTarget, cliTarget, runCli } from "../../test-support.js";

let t: CliTarget;
beforeAll(async () => {
  t = await cliTarget({ hold: true });
});
afterAll(() => t?.close());

describe("partners", () => {
  it("adds a partner with a generated key and lists it", async () => {
    const r = await runCli(
      t,
      "partners",
      "add",
      "MTB News",
      "https://mtb.example/",
      "http://localhost:8080",
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^Partner \d+ \(MTB News\) added for https:\/\/mtb\.example, http:\/\/localhost:8080\.\nPublishable key: pk_[\w-]{24}\n$/,
    );
    const [stored] = await listPartners(t.h!.db);
    expect(r.stdout).toContain(stored!.publishableKey);
    const list = await runCli(t, "partners", "list", "--json");
    expect(JSON.parse(list.stdout)).toMatchObject([
      { name: "MTB News", origins: ["https://mtb.example", "http://localhost:8080"] },
    ]);
  });

  it("refuses an origin with a path (exit 1), adding nothing", async () => {
    const before = (await listPartners(t.h!.db)).length;
    const r = await runCli(t, "partners", "add", "Bad", "https://bad.example/embed");
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'error: "https://bad.example/embed" is not a web origin (like https://news.example).\n',
    );
    expect(await listPartners(t.h!.db)).toHaveLength(before);
  });

  it("refuses an origin another partner lists, naming it, and wildcard origins (exit 1)", async () => {
    const before = await listPartners(t.h!.db);
    const owner = before.find((p) => p.origins.includes("https://mtb.example"))!;
    const taken = await runCli(t, "partners", "add", "Copy", "https://MTB.example");
    expect(taken.code).toBe(1);
    expect(taken.stderr).toBe(
      `error: https://mtb.example already belongs to MTB News (partner ${owner.id}): an origin belongs to one partner.\n`,
    );
    const wild = await runCli(t, "partners", "add", "Wild", "https://*.example.com");
    expect(wild.code).toBe(1);
    expect(wild.stderr).toBe(
      `error: "https://*.example.com": wildcard origins are not supported; list each site's origin (like https://news.example.com).\n`,
    );
    expect(await listPartners(t.h!.db)).toHaveLength(before.length);
  });
});
