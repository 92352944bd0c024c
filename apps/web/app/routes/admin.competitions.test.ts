/**
 * /admin/competitions against a real database: who may use it, and each form (create, rules,
 * archive, add a round, copy racers) with its refusals, shown by field and word for word.
 */
import { BENCH_RULE, CAPTAIN_RULE, transfersRule, WILDCARD_RULE } from "@game/core";
import { auditLog, events, getCompetition, racers } from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import { and, desc, eq, isNull } from "drizzle-orm";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import {
  createStaticHandler,
  createStaticRouter,
  StaticRouterProvider,
} from "react-router-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookieFor, makeUser, request, testContext } from "../../tests/support/context";
import * as page from "./admin.competitions";

let h: DbHandle;
let ctx: ReturnType<typeof testContext>;
let adminCookie: string;
let playerCookie: string;
/** The page's clock: before the seeded 2027 series locks. */
const NOW = new Date("2026-11-01T12:00:00Z");

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  ctx = testContext(h.db, { now: () => NOW });
  adminCookie = await cookieFor(ctx, await makeUser(h.db, { role: "admin" }));
  playerCookie = await cookieFor(ctx, await makeUser(h.db));
});
afterAll(() => h.close());

interface Answer {
  intent: string | null;
  competition: string | null;
  ok: boolean;
  message?: string;
  errors?: Record<string, string>;
  values?: Record<string, string>;
  confirm?: { kind: string; copied?: number; alreadyEntered?: number; withdrawn?: number };
}

async function post(form: Record<string, string>, cookie = adminCookie) {
  const value = (await page.action({
    request: request("/admin/competitions", { cookie, form }),
    context: ctx,
    params: {},
  })) as { data: Answer; init?: { status?: number } | null };
  return { status: value.init?.status ?? 200, body: value.data };
}

async function load() {
  return (await page.loader({
    request: request("/admin/competitions", { cookie: adminCookie }),
    context: ctx,
    params: {},
  })) as Awaited<ReturnType<typeof page.loader>>;
}

const XC = {
  intent: "create",
  name: "XC Cup 2028",
  discipline: "cross-country",
  season: "2028",
  description: "Six riders, exactly three women.",
  teamSize: "6",
  budget: "1,500,000",
  minWomen: "3",
  maxWomen: "3",
  minJuniors: "0",
  maxJuniors: "",
  lockHours: "12",
};

/** The page's HTML as the server renders it for the admin, without an action's answer. */
async function rendered(): Promise<string> {
  const handler = createStaticHandler([
    {
      id: "page",
      path: "/admin/competitions",
      loader: async ({ request: r, params }) =>
        (await page.loader({ request: r, params, context: ctx })) as object,
      Component: page.default,
    },
  ]);
  const context = await handler.query(request("/admin/competitions", { cookie: adminCookie }));
  if (context instanceof Response) throw new Error(`the page answered ${context.status}`);
  return renderToString(
    createElement(StaticRouterProvider, {
      router: createStaticRouter(handler.dataRoutes, context),
      context,
      hydrate: false,
    }),
  );
}

/** What the action threw (a Response for the guards). */
async function thrown(fn: () => unknown): Promise<Response> {
  try {
    await fn();
  } catch (error) {
    return error as Response;
  }
  throw new Error("expected a refusal");
}

describe("access", () => {
  it("sends visitors to log in and refuses players, reading or posting", async () => {
    const visitor = await thrown(() =>
      page.loader({ request: request("/admin/competitions"), context: ctx, params: {} }),
    );
    expect(visitor.status).toBe(302);
    const player = await thrown(() =>
      page.loader({
        request: request("/admin/competitions", { cookie: playerCookie }),
        context: ctx,
        params: {},
      }),
    );
    expect(player.status).toBe(403);
    const posted = await thrown(() => post(XC, playerCookie));
    expect(posted.status).toBe(403);
    expect(await getCompetition(h.db, "xc-cup-2028", NOW)).toBeUndefined();
  });
});

describe("the list", () => {
  it("lists every competition, live first, with its rules in words and as form values", async () => {
    const { competitions } = await load();
    expect(competitions.map((c) => [c.slug, c.state])).toEqual([
      ["pro-downhill-series-2027", "live"],
      ["freeride-2024", "finished"],
      ["uci-mountain-bike-world-championships-2024", "finished"],
      ["uci-downhill-world-cup-2024", "finished"],
    ]);
    const pds = competitions[0]!;
    expect(pds.rulesOpen).toBe(true);
    expect(pds.rulesText[0]).toBe("Pick exactly 6 riders within a $1,000,000 budget.");
    expect(pds.ruleValues).toEqual({
      teamSize: "6",
      budget: "1000000",
      minWomen: "2",
      maxWomen: "",
      minJuniors: "1",
      maxJuniors: "",
      lockHours: "12",
      captain: "",
      bench: "",
      transfers: "",
      transfersFree: "",
      transfersBank: "",
      transfersCost: "",
      wildcard: "",
    });
    expect(pds.rounds.map((r) => r.id)).toEqual([5, 6, 7, 8, 9]);
  });
});

describe("create", () => {
  it("shows each problem by its field, keeps what was typed, and creates nothing", async () => {
    const bad = await post({
      ...XC,
      name: " ",
      budget: "lots",
      minWomen: "7",
      maxJuniors: "x",
      lockHours: "",
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({
      name: "A competition's name has at least 3 characters.",
      budget: "Give the budget in whole dollars, e.g. 1,500,000.",
      maxJuniors:
        "Give the maximum of juniors as a whole number, or leave it empty for no maximum.",
      lockHours: "Give the lock time in hours.",
    });
    expect(bad.body.values).toMatchObject({ budget: "lots", minWomen: "7", maxWomen: "3" });

    // Rules no team can meet: the rules schema's message, on the field it is about.
    const impossible = await post({ ...XC, minWomen: "7", maxWomen: "" });
    expect(impossible.status).toBe(400);
    expect(impossible.body.errors?.minWomen).toBe(
      "The minimum of women (7) is more than the team size (6).",
    );
    const upsideDown = await post({ ...XC, minWomen: "3", maxWomen: "2" });
    expect(upsideDown.body.errors?.maxWomen).toBe(
      "The maximum of women (2) is below the minimum (3).",
    );
    expect(await getCompetition(h.db, "xc-cup-2028", NOW)).toBeUndefined();
  });

  it("creates a competition with its rules, recorded in the audit log", async () => {
    const done = await post(XC);
    expect(done).toMatchObject({
      status: 200,
      body: {
        ok: true,
        competition: "xc-cup-2028",
        message: "Created XC Cup 2028 (xc-cup-2028). Add its first round below.",
      },
    });
    const c = await getCompetition(h.db, "xc-cup-2028", NOW);
    expect(c).toMatchObject({
      name: "XC Cup 2028",
      discipline: "cross-country",
      season: "2028",
      description: "Six riders, exactly three women.",
      state: "upcoming",
      rules: {
        teamSize: 6,
        budget: 1_500_000,
        women: { min: 3, max: 3 },
        juniors: { min: 0, max: null },
        lockHours: 12,
        captain: false,
        bench: false,
      },
    });
    const [log] = await h.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "competition.create"));
    expect(log!.actor).toMatch(/^web:/);
    const listed = (await load()).competitions.find((c) => c.slug === "xc-cup-2028");
    expect(listed?.rulesText).toContain(
      "Your team has exactly 3 female riders (Pro Women or 17-18 Women).",
    );

    const again = await post({ ...XC, name: "xc cup 2028" });
    expect(again.status).toBe(400);
    expect(again.body.errors?.name).toMatch(/^A competition named "xc cup 2028" already exists/);
  });

  it("creates a competition with captains when the captain box is ticked", async () => {
    const bad = await post({ ...XC, name: "Enduro Cup 2028", teamSize: "", captain: "on" });
    expect(bad.body.errors).toEqual({ teamSize: "Give the team size." });
    // The box stays ticked when the form comes back.
    expect(bad.body.values).toMatchObject({ captain: "on" });
    const done = await post({
      ...XC,
      name: "Enduro Cup 2028",
      discipline: "enduro",
      captain: "on",
    });
    expect(done.body).toMatchObject({ ok: true, competition: "enduro-cup-2028" });
    expect((await getCompetition(h.db, "enduro-cup-2028", NOW))?.rules.captain).toBe(true);
    const listed = (await load()).competitions.find((c) => c.slug === "enduro-cup-2028");
    expect(listed?.rulesText).toContain(CAPTAIN_RULE);
    expect(listed?.ruleValues.captain).toBe("on");
  });

  it("shows the captain as a labelled checkbox, ticked as the rules say", async () => {
    const html = await rendered();
    const box = (id: string) => html.match(new RegExp(`<input[^>]*id="${id}"[^>]*>`))?.[0] ?? "";
    const enduro = box("enduro-cup-2028-rules-captain");
    expect(enduro).toContain('type="checkbox"');
    expect(enduro).toContain('name="captain"');
    expect(enduro).toMatch(/\schecked=""/);
    expect(html).toContain(
      '<label for="enduro-cup-2028-rules-captain">Captain: a team&#x27;s captain scores double points</label>',
    );
    expect(box("xc-cup-2028-rules-captain")).not.toMatch(/\schecked/);
    // A new competition starts without captains.
    expect(box("competition-captain")).toContain('type="checkbox"');
    expect(box("competition-captain")).not.toMatch(/\schecked/);
  });

  it("creates a competition with a bench when the bench box is ticked", async () => {
    const bad = await post({ ...XC, name: "Marathon Cup 2028", teamSize: "", bench: "on" });
    expect(bad.body.errors).toEqual({ teamSize: "Give the team size." });
    // The box stays ticked when the form comes back.
    expect(bad.body.values).toMatchObject({ bench: "on" });
    const done = await post({ ...XC, name: "Marathon Cup 2028", bench: "on" });
    expect(done.body).toMatchObject({ ok: true, competition: "marathon-cup-2028" });
    expect((await getCompetition(h.db, "marathon-cup-2028", NOW))?.rules).toMatchObject({
      bench: true,
      captain: false,
    });
    const listed = (await load()).competitions.find((c) => c.slug === "marathon-cup-2028");
    expect(listed?.rulesText).toContain(BENCH_RULE);
    expect(listed?.ruleValues).toMatchObject({ bench: "on", captain: "" });
  });

  it("shows the bench as a labelled checkbox, ticked as the rules say", async () => {
    const html = await rendered();
    const box = (id: string) => html.match(new RegExp(`<input[^>]*id="${id}"[^>]*>`))?.[0] ?? "";
    const marathon = box("marathon-cup-2028-rules-bench");
    expect(marathon).toContain('type="checkbox"');
    expect(marathon).toContain('name="bench"');
    expect(marathon).toMatch(/\schecked=""/);
    expect(html).toContain(
      '<label for="marathon-cup-2028-rules-bench">Bench: a team may add one rider on the bench who scores for a starter who does not start</label>',
    );
    expect(box("enduro-cup-2028-rules-bench")).not.toMatch(/\schecked/);
    // A new competition starts without a bench.
    expect(box("competition-bench")).toContain('type="checkbox"');
    expect(box("competition-bench")).not.toMatch(/\schecked/);
  });

  it("creates a competition with limited transfers and a wildcard when their boxes are ticked", async () => {
    const limited = {
      ...XC,
      name: "Stage Race 2028",
      transfers: "on",
      transfersFree: "1",
      transfersBank: "5",
      transfersCost: "4",
      wildcard: "on",
    };
    const bad = await post({ ...limited, transfersBank: "lots" });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({
      transfersBank: "Give the free transfers kept at most as a whole number (empty: 5).",
    });
    // What was typed comes back, boxes ticked.
    expect(bad.body.values).toMatchObject({
      transfers: "on",
      transfersFree: "1",
      transfersBank: "lots",
      wildcard: "on",
    });
    const done = await post(limited);
    expect(done.body).toMatchObject({ ok: true, competition: "stage-race-2028" });
    expect((await getCompetition(h.db, "stage-race-2028", NOW))?.rules).toMatchObject({
      transfers: { free: 1, bank: 5, cost: 4 },
      wildcard: true,
      captain: false,
      bench: false,
    });
    const listed = (await load()).competitions.find((c) => c.slug === "stage-race-2028");
    expect(listed?.rulesText).toContain(transfersRule({ free: 1, bank: 5, cost: 4 }));
    expect(listed?.rulesText).toContain(WILDCARD_RULE);
    expect(listed?.ruleValues).toMatchObject({
      transfers: "on",
      transfersFree: "1",
      transfersBank: "5",
      transfersCost: "4",
      wildcard: "on",
    });
  });

  it("shows limited transfers and the wildcard as labelled fields, as the rules say", async () => {
    const html = await rendered();
    const input = (id: string) => html.match(new RegExp(`<input[^>]*id="${id}"[^>]*>`))?.[0] ?? "";
    const label = (id: string, text: string) => `<label for="${id}">${text}</label>`;
    for (const prefix of ["competition", "stage-race-2028-rules"]) {
      expect(input(`${prefix}-transfers`)).toContain('type="checkbox"');
      expect(input(`${prefix}-transfers`)).toContain('name="transfers"');
      expect(input(`${prefix}-wildcard`)).toContain('type="checkbox"');
      expect(input(`${prefix}-wildcard`)).toContain('name="wildcard"');
      expect(html).toContain(label(`${prefix}-transfers`, "Limited transfers"));
      expect(html).toContain(label(`${prefix}-transfersFree`, "Free transfers a round"));
      expect(html).toContain(label(`${prefix}-transfersBank`, "Free transfers kept at most"));
      expect(html).toContain(label(`${prefix}-transfersCost`, "Points per extra transfer"));
      expect(html).toContain(
        label(
          `${prefix}-wildcard`,
          "Wildcard: once per competition, one round&#x27;s transfers are all free",
        ),
      );
    }
    expect(input("stage-race-2028-rules-transfers")).toMatch(/\schecked=""/);
    expect(input("stage-race-2028-rules-wildcard")).toMatch(/\schecked=""/);
    expect(input("stage-race-2028-rules-transfersBank")).toContain('value="5"');
    expect(input("stage-race-2028-rules-transfersBank")).toContain('name="transfersBank"');
    // A new competition starts with unlimited transfers and no wildcard.
    expect(input("competition-transfers")).not.toMatch(/\schecked/);
    expect(input("competition-wildcard")).not.toMatch(/\schecked/);
    expect(input("marathon-cup-2028-rules-transfers")).not.toMatch(/\schecked/);
  });
});

describe("rounds and racers", () => {
  let roundId: number;

  it("adds a round at the admin's local time, refusing a past time and a short name", async () => {
    const round = {
      intent: "round",
      competition: "xc-cup-2028",
      name: "Round 1: Nove Mesto",
      startsAt: "2028-05-14T12:00",
      timeZone: "Europe/Prague",
      location: "Nove Mesto, Czechia",
    };
    const past = await post({ ...round, startsAt: "2026-10-01T12:00" });
    expect(past.status).toBe(400);
    expect(past.body.errors).toEqual({
      startsAt: "That time has passed: give a start time in the future.",
    });
    const short = await post({ ...round, name: "R1" });
    expect(short.body.errors).toEqual({ name: "A round's name has 3 to 100 characters." });
    const badZone = await post({ ...round, timeZone: "Mars/Olympus" });
    expect(badZone.body.errors).toEqual({ form: "Unknown time zone." });

    const done = await post(round);
    expect(done.status).toBe(200);
    expect(done.body.message).toMatch(
      /^Added Round 1: Nove Mesto \(event \d+, round 1\), starting Sunday 14 May 2028, 12:00 CEST\./,
    );
    const [row] = await h.db.select().from(events).where(eq(events.name, "Round 1: Nove Mesto"));
    roundId = row!.id;
    // 12:00 in Prague in May is 10:00 UTC.
    expect(row!.startsAt.toISOString()).toBe("2028-05-14T10:00:00.000Z");
    expect(row).toMatchObject({ status: "closed", location: "Nove Mesto, Czechia" });

    const twice = await post(round);
    expect(twice.body.errors?.name).toMatch(/already has a round named "Round 1: Nove Mesto"/);
  });

  it("previews a copy of racers, writes nothing, then copies once confirmed", async () => {
    const starters = await h.db
      .select({ id: racers.id })
      .from(racers)
      .where(and(eq(racers.gameId, 5), isNull(racers.withdrawnAt)));
    const base = { intent: "copy", competition: "xc-cup-2028", to: String(roundId) };

    const itself = await post({ ...base, from: String(roundId) });
    expect(itself.body.errors).toEqual({
      from: "Copy racers from one round into another, not into itself.",
    });
    const none = await post({ ...base, from: "" });
    expect(none.body.errors).toEqual({ from: "Choose the round to copy racers from." });

    const preview = await post({ ...base, from: "5" });
    expect(preview.status).toBe(200);
    expect(preview.body.confirm).toMatchObject({
      kind: "copy",
      from: { id: 5 },
      to: { id: roundId },
      copied: starters.length,
      alreadyEntered: 0,
    });
    expect(await h.db.select().from(racers).where(eq(racers.gameId, roundId))).toEqual([]);

    const done = await post({ ...base, from: "5", confirm: "yes" });
    expect(done.body).toMatchObject({ ok: true, competition: "xc-cup-2028" });
    expect(done.body.message).toMatch(
      new RegExp(
        `^Copied ${starters.length} racers from Pro Downhill Series Round 1: Windrock into Round 1: Nove Mesto`,
      ),
    );
    expect(await h.db.select().from(racers).where(eq(racers.gameId, roundId))).toHaveLength(
      starters.length,
    );
    // A second copy enters nobody twice.
    const again = await post({ ...base, from: "5", confirm: "yes" });
    expect(again.body.message).toMatch(/^Copied 0 racers .* already entered kept their entry/);
  });
});

describe("rules", () => {
  const rules = {
    intent: "rules",
    competition: "xc-cup-2028",
    teamSize: "6",
    budget: "1500000",
    minWomen: "3",
    maxWomen: "3",
    minJuniors: "0",
    maxJuniors: "",
    lockHours: "24",
  };

  it("changes the rules before the first lock, says when nothing changed", async () => {
    expect((await post(rules)).body).toMatchObject({
      ok: true,
      message: "Saved the rules of XC Cup 2028.",
    });
    expect((await getCompetition(h.db, "xc-cup-2028", NOW))?.rules.lockHours).toBe(24);
    expect((await post(rules)).body.message).toBe("No change to the rules of XC Cup 2028.");
    const bad = await post({ ...rules, minJuniors: "9" });
    expect(bad.body.errors).toEqual({
      minJuniors: "The minimum of juniors (9) is more than the team size (6).",
    });
  });

  it("turns the captain on with the box ticked and off with it unticked", async () => {
    const on = await post({ ...rules, captain: "on" });
    expect(on.body).toMatchObject({ ok: true, message: "Saved the rules of XC Cup 2028." });
    const saved = await getCompetition(h.db, "xc-cup-2028", NOW);
    expect(saved?.rules).toMatchObject({ captain: true, lockHours: 24, budget: 1_500_000 });
    const listed = (await load()).competitions.find((c) => c.slug === "xc-cup-2028");
    expect(listed?.ruleValues.captain).toBe("on");
    expect(listed?.rulesText).toContain(CAPTAIN_RULE);
    const [log] = await h.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "competition.rules"))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(log!.detail).toMatchObject({ from: { captain: false }, to: { captain: true } });

    // An unticked box posts nothing: the captain is off.
    const off = await post(rules);
    expect(off.body.message).toBe("Saved the rules of XC Cup 2028.");
    expect((await getCompetition(h.db, "xc-cup-2028", NOW))?.rules.captain).toBe(false);
    expect((await post(rules)).body.message).toBe("No change to the rules of XC Cup 2028.");
  });

  it("turns the bench on with the box ticked and off with it unticked", async () => {
    const on = await post({ ...rules, bench: "on" });
    expect(on.body).toMatchObject({ ok: true, message: "Saved the rules of XC Cup 2028." });
    const saved = await getCompetition(h.db, "xc-cup-2028", NOW);
    expect(saved?.rules).toMatchObject({
      bench: true,
      captain: false,
      lockHours: 24,
      budget: 1_500_000,
    });
    const listed = (await load()).competitions.find((c) => c.slug === "xc-cup-2028");
    expect(listed?.ruleValues.bench).toBe("on");
    expect(listed?.rulesText).toContain(BENCH_RULE);
    const [log] = await h.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "competition.rules"))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(log!.detail).toMatchObject({ from: { bench: false }, to: { bench: true } });

    // An unticked box posts nothing: the bench is off.
    const off = await post(rules);
    expect(off.body.message).toBe("Saved the rules of XC Cup 2028.");
    expect((await getCompetition(h.db, "xc-cup-2028", NOW))?.rules.bench).toBe(false);
    expect((await post(rules)).body.message).toBe("No change to the rules of XC Cup 2028.");
  });

  it("limits transfers with the wildcard when ticked, and lifts both when unticked", async () => {
    const limited = {
      ...rules,
      transfers: "on",
      transfersFree: "1",
      transfersBank: "5",
      transfersCost: "4",
      wildcard: "on",
    };
    const on = await post(limited);
    expect(on.body).toMatchObject({ ok: true, message: "Saved the rules of XC Cup 2028." });
    const saved = await getCompetition(h.db, "xc-cup-2028", NOW);
    expect(saved?.rules).toMatchObject({
      transfers: { free: 1, bank: 5, cost: 4 },
      wildcard: true,
      lockHours: 24,
      budget: 1_500_000,
    });
    const listed = (await load()).competitions.find((c) => c.slug === "xc-cup-2028");
    expect(listed?.ruleValues).toMatchObject({
      transfers: "on",
      transfersCost: "4",
      wildcard: "on",
    });
    const [log] = await h.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "competition.rules"))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(log!.detail).toMatchObject({
      from: { transfers: null, wildcard: false },
      to: { transfers: { free: 1, bank: 5, cost: 4 }, wildcard: true },
    });

    // Unticked boxes post nothing: transfers are unlimited and there is no wildcard, whatever
    // the numbers say.
    const off = await post({ ...rules, transfersFree: "x", transfersBank: "5" });
    expect(off.body.message).toBe("Saved the rules of XC Cup 2028.");
    expect((await getCompetition(h.db, "xc-cup-2028", NOW))?.rules).toMatchObject({
      transfers: null,
      wildcard: false,
    });
    expect((await post(rules)).body.message).toBe("No change to the rules of XC Cup 2028.");
  });

  it("reads empty transfer numbers as 1, 5 and 4, and refuses what the rules schema refuses", async () => {
    const empty = await post({ ...rules, transfers: "on" });
    expect(empty.body.ok).toBe(true);
    expect((await getCompetition(h.db, "xc-cup-2028", NOW))?.rules.transfers).toEqual({
      free: 1,
      bank: 5,
      cost: 4,
    });

    // A wildcard without limited transfers: the schema's message, on the wildcard box.
    const wild = await post({ ...rules, wildcard: "on" });
    expect(wild.status).toBe(400);
    expect(wild.body.errors).toEqual({
      wildcard:
        "A wildcard needs limited transfers: with unlimited changes it would change nothing.",
    });
    expect(wild.body.values).toMatchObject({ wildcard: "on", transfers: "" });
    const bank = await post({ ...rules, transfers: "on", transfersFree: "3", transfersBank: "2" });
    expect(bank.body.errors).toEqual({
      transfersBank: "The free transfers kept must be at least the free transfers of a round.",
    });
    const big = await post({ ...rules, transfers: "on", transfersCost: "5000" });
    expect(big.body.errors).toEqual({
      transfersCost: "An extra transfer costs 0 to 1,000 points.",
    });
    // Nothing refused was saved.
    expect((await getCompetition(h.db, "xc-cup-2028", NOW))?.rules).toMatchObject({
      transfers: { free: 1, bank: 5, cost: 4 },
      wildcard: false,
    });
    expect((await post(rules)).body.message).toBe("Saved the rules of XC Cup 2028.");
  });

  it("refuses a change after the first lock with the service's message, as the form's error", async () => {
    const fixed = await post({
      ...rules,
      competition: "freeride-2024",
      budget: "1000000",
      minWomen: "2",
      maxWomen: "",
      minJuniors: "1",
      lockHours: "12",
      teamSize: "7",
    });
    expect(fixed.status).toBe(400);
    expect(Object.keys(fixed.body.errors ?? {})).toEqual(["form"]);
    expect(fixed.body.errors?.form).toMatch(
      /^The rules of Freeride 2024 are fixed: teams locked for .*Create a new competition for new rules\.$/,
    );
    expect((await getCompetition(h.db, "freeride-2024", NOW))?.rules.teamSize).toBe(6);
    const captain = await post({
      ...rules,
      competition: "freeride-2024",
      budget: "1000000",
      minWomen: "2",
      maxWomen: "",
      minJuniors: "1",
      lockHours: "12",
      captain: "on",
    });
    expect(captain.body.errors?.form).toMatch(/^The rules of Freeride 2024 are fixed/);
    expect((await getCompetition(h.db, "freeride-2024", NOW))?.rules.captain).toBe(false);

    const unknown = await post({ ...rules, competition: "no-such-cup" });
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors).toEqual({ form: "That competition no longer exists." });
  });
});

describe("archive", () => {
  it("asks first, then refuses while a round is open, with the service's message", async () => {
    const ask = await post({ intent: "archive", competition: "pro-downhill-series-2027" });
    expect(ask.body).toMatchObject({ ok: true, confirm: { kind: "archive" } });
    expect((await getCompetition(h.db, "pro-downhill-series-2027", NOW))?.archivedAt).toBeNull();

    const refused = await post({
      intent: "archive",
      competition: "pro-downhill-series-2027",
      confirm: "yes",
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors?.form).toMatch(
      /^Pro Downhill Series Round 1: Windrock \(event 5\) is still open: close it first/,
    );
  });

  it("archives a competition once confirmed: its rounds are archived too", async () => {
    const ask = await post({ intent: "archive", competition: "xc-cup-2028" });
    expect(ask.body.confirm).toEqual({ kind: "archive" });
    expect((await getCompetition(h.db, "xc-cup-2028", NOW))?.archivedAt).toBeNull();
    const done = await post({ intent: "archive", competition: "xc-cup-2028", confirm: "yes" });
    expect(done.body.message).toMatch(/^XC Cup 2028 is archived/);
    const c = await getCompetition(h.db, "xc-cup-2028", NOW);
    expect(c?.state).toBe("archived");
    expect(c?.rounds.every((r) => r.status === "archived")).toBe(true);
    // Archived: no new rounds.
    const late = await post({
      intent: "round",
      competition: "xc-cup-2028",
      name: "Round 2",
      startsAt: "2028-06-14T12:00",
      timeZone: "UTC",
    });
    expect(late.body.errors?.form).toBe("XC Cup 2028 is archived: it takes no new rounds.");
  });

  it("answers an unknown action with a form error", async () => {
    const odd = await post({ intent: "explode" });
    expect(odd).toMatchObject({ status: 400, body: { errors: { form: "Unknown action." } } });
  });
});
