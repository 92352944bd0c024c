import { PARTNER_STATS_NOTE } from "@game/core";
import { addPartner, addPartnerStats, CLI_ACTOR, utcDay } from "@game/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliTarget, cliTarget, runCli } from "../../test-support.js";

let t: CliTarget;
let news: number;
let quiet: number;
const today = utcDay(new Date());
const yesterday = utcDay(new Date(Date.now() - 86_400_000));
const longAgo = utcDay(new Date(Date.now() - 40 * 86_400_000));

beforeAll(async () => {
  t = await cliTarget({ hold: true });
  const db = t.h!.db;
  news = (await addPartner(db, { name: "MTB News", origins: ["https://news.example"] }, CLI_ACTOR))
    .id;
  quiet = (await addPartner(db, { name: "Quiet", origins: ["https://quiet.example"] }, CLI_ACTOR))
    .id;
  await addPartnerStats(db, [
    { partnerId: news, day: yesterday, widgetLoads: 120, apiCalls: 480, signIns: 9, teamSaves: 7 },
    { partnerId: news, day: today, widgetLoads: 3, apiCalls: 12 },
    { partnerId: news, day: longAgo, widgetLoads: 1000 },
  ]);
});
afterAll(() => t?.close());

describe("partners stats", () => {
  it("totals every partner over the last 7 days", async () => {
    const r = await runCli(t, "partners", "stats");
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe("Last 7 days (UTC), totals per partner:");
    expect(lines[1]).toMatch(
      /^ID\s+Name\s+Status\s+Widget loads\s+API calls\s+Sign-ins\s+Team saves$/,
    );
    expect(lines[2]).toMatch(
      new RegExp(`^\\s*${news}\\s+MTB News\\s+active\\s+123\\s+492\\s+9\\s+7$`),
    );
    expect(lines[3]).toMatch(new RegExp(`^\\s*${quiet}\\s+Quiet\\s+active\\s+0\\s+0\\s+0\\s+0$`));
    // What the figures are worth, as the dashboard says it.
    expect(lines.at(-1)).toBe(PARTNER_STATS_NOTE);
  });

  it("shows one partner day by day, with a total, as text or JSON", async () => {
    const r = await runCli(t, "partners", "stats", String(news), "--days", "2");
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe(`Partner ${news} (MTB News), last 2 days (UTC):`);
    expect(lines[1]).toMatch(/^Day\s+Widget loads\s+API calls\s+Sign-ins\s+Team saves$/);
    expect(lines[2]).toMatch(new RegExp(`^${yesterday}\\s+120\\s+480\\s+9\\s+7$`));
    expect(lines[3]).toMatch(new RegExp(`^${today}\\s+3\\s+12\\s+0\\s+0$`));
    expect(lines[4]).toMatch(/^Total\s+123\s+492\s+9\s+7$/);

    const json = await runCli(t, "partners", "stats", String(news), "--days", "60", "--json");
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report).toMatchObject({ partnerId: news, name: "MTB News", disabled: false });
    expect(report.days).toHaveLength(60);
    expect(report.totals).toEqual({ widgetLoads: 1123, apiCalls: 492, signIns: 9, teamSaves: 7 });
  });

  it("refuses an unknown partner (exit 1) and bad --days (exit 2)", async () => {
    const missing = await runCli(t, "partners", "stats", "999999");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe("error: partner 999999 not found (see partners list).\n");
    for (const days of ["0", "abc", "367"]) {
      const bad = await runCli(t, "partners", "stats", "--days", days);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/--days/);
      expect(bad.stdout).toBe("");
    }
  });
});
