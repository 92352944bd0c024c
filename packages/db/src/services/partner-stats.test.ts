import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import { partnerDailyStats } from "../schema/index.js";
import { createTestDb } from "../testing.js";
import { CLI_ACTOR } from "./audit.js";
import {
  addPartnerStats,
  createPartnerStatsCounter,
  creditPageView,
  getPartnerStats,
  MAX_WIDGETS_PER_PAGE_VIEW,
  PAGE_VIEW_MEMORY_MS,
  partnerIdForOrigin,
  recordPartnerStat,
  statsDays,
  utcDay,
} from "./partner-stats.js";
import { addPartner, deletePartner, disablePartner } from "./partners.js";

let h: DbHandle;
beforeAll(async () => {
  h = await createTestDb();
});
afterAll(() => h.close());

let n = 0;
async function partner(origins: string[] = []) {
  n += 1;
  const p = await addPartner(
    h.db,
    { name: `Stats ${n}`, origins: origins.length ? origins : [`https://stats${n}.example`] },
    CLI_ACTOR,
  );
  return p;
}

const noon = (day: string) => new Date(`${day}T12:00:00Z`);

describe("partner stats", () => {
  it("days are UTC days, oldest first, today last", () => {
    expect(utcDay(new Date("2026-03-01T23:59:59-02:00"))).toBe("2026-03-02");
    expect(statsDays(3, new Date("2026-03-01T00:30:00Z"))).toEqual([
      "2026-02-27",
      "2026-02-28",
      "2026-03-01",
    ]);
  });

  it("adds up concurrent upserts without losing a count", async () => {
    const p = await partner();
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        recordPartnerStat(h.db, p.id, i % 2 ? "signIns" : "teamSaves", noon("2026-05-04")),
      ),
    );
    await addPartnerStats(h.db, [
      { partnerId: p.id, day: "2026-05-04", widgetLoads: 3, apiCalls: 7 },
      { partnerId: p.id, day: "2026-05-03", apiCalls: 2 },
    ]);
    const [report] = await getPartnerStats(h.db, {
      partnerId: p.id,
      days: 3,
      now: noon("2026-05-04"),
    });
    expect(report!.days).toEqual([
      { day: "2026-05-02", widgetLoads: 0, apiCalls: 0, signIns: 0, teamSaves: 0 },
      { day: "2026-05-03", widgetLoads: 0, apiCalls: 2, signIns: 0, teamSaves: 0 },
      { day: "2026-05-04", widgetLoads: 3, apiCalls: 7, signIns: 10, teamSaves: 10 },
    ]);
    expect(report!.totals).toEqual({ widgetLoads: 3, apiCalls: 9, signIns: 10, teamSaves: 10 });
    expect(report!.name).toBe(p.name);
  });

  it("the counter batches in memory and writes on flush, per UTC day", async () => {
    const p = await partner();
    let clock = new Date("2026-06-01T23:59:58Z");
    const counter = createPartnerStatsCounter(h.db, { flushMs: 60_000, now: () => clock });
    counter.count(p.id, "widgetLoads", 2);
    counter.count(p.id, "apiCalls");
    counter.count(p.id, "apiCalls");
    const before = await getPartnerStats(h.db, { partnerId: p.id, days: 2, now: clock });
    expect(before[0]!.totals.apiCalls).toBe(0);
    clock = new Date("2026-06-02T00:00:01Z");
    counter.count(p.id, "apiCalls");
    counter.count(p.id, "apiCalls", 0);
    counter.count(p.id, "apiCalls", -4);
    await counter.flush();
    await counter.flush();
    counter.count(p.id, "widgetLoads");
    await counter.stop();
    const [report] = await getPartnerStats(h.db, { partnerId: p.id, days: 2, now: clock });
    expect(report!.days.map((d) => [d.day, d.widgetLoads, d.apiCalls])).toEqual([
      ["2026-06-01", 2, 2],
      ["2026-06-02", 1, 1],
    ]);
  });

  it("drops counts of a deleted partner instead of failing the batch", async () => {
    const gone = await partner();
    const kept = await partner();
    await disablePartner(h.db, gone.id, CLI_ACTOR);
    await deletePartner(h.db, gone.id, CLI_ACTOR);
    await addPartnerStats(h.db, [
      { partnerId: gone.id, day: "2026-07-01", apiCalls: 1 },
      { partnerId: kept.id, day: "2026-07-01", apiCalls: 4 },
    ]);
    const rows = await h.db.select().from(partnerDailyStats);
    expect(rows.filter((r) => r.partnerId === gone.id)).toEqual([]);
    expect(rows.find((r) => r.partnerId === kept.id && r.day === "2026-07-01")?.apiCalls).toBe(4);
  });

  it("credits an origin to the enabled partner listing it, only for an exact origin", async () => {
    const p = await partner(["https://credit.example", "http://localhost:4000"]);
    expect(await partnerIdForOrigin(h.db, "https://credit.example")).toBe(p.id);
    expect(await partnerIdForOrigin(h.db, "http://localhost:4000")).toBe(p.id);
    expect(await partnerIdForOrigin(h.db, "https://credit.example/")).toBeUndefined();
    expect(await partnerIdForOrigin(h.db, "https://other.example")).toBeUndefined();
    expect(await partnerIdForOrigin(h.db, "null")).toBeUndefined();
    await disablePartner(h.db, p.id, CLI_ACTOR);
    expect(await partnerIdForOrigin(h.db, "https://credit.example")).toBeUndefined();
  });

  it("lists every partner with zeros on quiet days; an unknown id gives nothing", async () => {
    const all = await getPartnerStats(h.db, { days: 1, now: noon("2030-01-01") });
    expect(all.length).toBeGreaterThan(1);
    expect(all.every((r) => r.days.length === 1 && r.totals.apiCalls === 0)).toBe(true);
    expect(await getPartnerStats(h.db, { partnerId: 999_999, days: 7 })).toEqual([]);
  });
});

describe("creditPageView", () => {
  it("credits a page view's widgets once: only what its count rises by, capped, for an hour", async () => {
    const p = await partner();
    const other = await partner();
    const at = new Date("2026-05-01T10:00:00Z");
    const later = (ms: number) => new Date(at.getTime() + ms);
    const pv = "0123456789abcdef0123456789abcdef";
    expect(await creditPageView(h.db, p.id, pv, 2, at)).toBe(2);
    expect(await creditPageView(h.db, p.id, pv, 3, later(1000))).toBe(1);
    expect(await creditPageView(h.db, p.id, pv, 3, later(2000))).toBe(0);
    expect(await creditPageView(h.db, p.id, pv, 1, later(3000))).toBe(0);
    expect(await creditPageView(h.db, p.id, pv, 5000, later(4000))).toBe(
      MAX_WIDGETS_PER_PAGE_VIEW - 3,
    );
    expect(await creditPageView(h.db, p.id, pv, 5000, later(5000))).toBe(0);
    // Another partner's page view is another page view; nothing for no widget.
    expect(await creditPageView(h.db, other.id, pv, 2, later(5000))).toBe(2);
    expect(await creditPageView(h.db, p.id, "fedcba9876543210fedcba9876543210", 0, at)).toBe(0);
    // A page still open an hour later counts again.
    expect(await creditPageView(h.db, p.id, pv, 2, later(PAGE_VIEW_MEMORY_MS))).toBe(2);
  });
});
