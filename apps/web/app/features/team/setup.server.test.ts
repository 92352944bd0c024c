import { BUDGET, LOCK_MS, validateTeam } from "@game/core";
import { events, getTeam, listTeamRacers, type TeamRacerView } from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import { createCookie } from "@remix-run/node";
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookieFor, makeUser, request, testContext } from "../../../tests/support/context";
import { FROZEN_EARLY, loadTeamSetup, teamSetupAction } from "./setup.server";
import { SAVE_FAILED, SAVE_OK, type TeamActionResult } from "./team-form";

let h: DbHandle;
let pool: TeamRacerView[];
let start: number;
let early: Date;

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  pool = await listTeamRacers(h.db, 5);
  const [round1] = await h.db.select().from(events).where(eq(events.id, 5));
  start = round1!.startsAt.getTime();
  early = new Date(start - LOCK_MS - 3 * 86_400_000);
});
afterAll(() => h.close());

const cheapest = (category: TeamRacerView["category"], k: number, skip = 0) =>
  pool
    .filter((r) => r.category === category)
    .sort((a, b) => a.price - b.price || a.id - b.id)
    .slice(skip, skip + k)
    .map((r) => r.id);
const validTeam = (skip = 0) => [
  ...cheapest("Pro Women", 2, skip),
  ...cheapest("17-18 Men", 1, skip),
  ...cheapest("Pro Men", 3, skip),
];

async function signedIn(now: Date = early) {
  const ctx = testContext(h.db, { now: () => now });
  const user = await makeUser(h.db);
  return { ctx, user, cookie: await cookieFor(ctx, user) };
}

/** Posts the team form; resolves to the status and the action's answer (or a redirect). */
async function post(
  ctx: ReturnType<typeof testContext>,
  cookie: string,
  form: Record<string, string | string[]>,
  path = "/team-setup?game=5",
) {
  const res = await teamSetupAction(request(path, { cookie, form }), ctx);
  if (res instanceof Response) {
    return { status: res.status, location: res.headers.get("Location"), body: null };
  }
  const { data, init } = res as unknown as { data: TeamActionResult; init: ResponseInit | null };
  return { status: init?.status ?? 200, location: null, body: data };
}

async function load(ctx: ReturnType<typeof testContext>, cookie: string, path: string) {
  const res = await loadTeamSetup(request(path, { cookie }), ctx);
  const { data, init } = res as unknown as {
    data: Awaited<ReturnType<typeof loadTeamSetup>>["data"];
    init: ResponseInit | null;
  };
  return { data, headers: new Headers(init?.headers) };
}

const ids = (list: number[]) => list.map(String);

describe("team setup loader", () => {
  it("sends visitors to log in, coming back here", async () => {
    const ctx = testContext(h.db);
    await expect(loadTeamSetup(request("/team-setup?game=5"), ctx)).rejects.toSatisfy(
      (r: Response) =>
        r.status === 302 &&
        r.headers.get("Location") ===
          `/?login=1&redirectTo=${encodeURIComponent("/team-setup?game=5")}`,
    );
  });

  it("shows the event's racers, the saved team, and remembers the game", async () => {
    const { ctx, user, cookie } = await signedIn();
    const empty = await load(ctx, cookie, "/team-setup?game=5");
    expect(empty.data.event.id).toBe(5);
    expect(empty.data.racers).toHaveLength(pool.length);
    expect(empty.data.hasTeam).toBe(false);
    expect(empty.data.draft).toEqual([]);
    expect(empty.data.editable.ok).toBe(true);
    expect(empty.data.category).toBe("Pro Men");
    expect(empty.data.event.lockAt).toBe(new Date(start - LOCK_MS).toISOString());
    expect(empty.headers.get("Set-Cookie")).toMatch(/^gf_game=/);

    await post(ctx, cookie, { game: "5", racer: ids(validTeam()), intent: "save" });
    const saved = await load(ctx, cookie, "/team-setup?game=5&category=junior-women");
    expect(saved.data.hasTeam).toBe(true);
    expect(saved.data.draft).toEqual(validTeam());
    expect(saved.data.category).toBe("17-18 Women");
    expect((await getTeam(h.db, user.id, 5))?.racers.map((r) => r.id)).toEqual(validTeam());
  });

  it("reads a draft from the URL, dropping unknown and repeated riders", async () => {
    const { ctx, cookie } = await signedIn();
    const [a, b] = validTeam();
    const q = new URLSearchParams([
      ["game", "5"],
      ["draft", "1"],
      ["racer", String(a)],
      ["racer", String(a)],
      ["racer", "999999"],
      ["racer", String(b)],
      ["show", String(b)],
    ]);
    const res = await load(ctx, cookie, `/team-setup?${q}`);
    expect(res.data.draft).toEqual([a, b]);
    expect(res.data.show).toBe(b);
    const cleared = await load(ctx, cookie, "/team-setup?game=5&draft=1");
    expect(cleared.data.draft).toEqual([]);
  });

  it("says 'Game not found.' for an unknown game and why a closed or locked one cannot be saved", async () => {
    const { ctx, cookie } = await signedIn();
    await expect(load(ctx, cookie, "/team-setup?game=999")).rejects.toSatisfy(
      (e: { data: { message: string }; init: { status: number } }) =>
        e.init.status === 404 && e.data.message === "Game not found.",
    );
    const closed = await load(ctx, cookie, "/team-setup?game=6");
    expect(closed.data.editable).toEqual({ ok: false, reason: expect.stringMatching(/not open/) });

    const late = testContext(h.db, { now: () => new Date(start - LOCK_MS) });
    const locked = await load(late, cookie, "/team-setup?game=5");
    expect(locked.data.editable).toEqual({ ok: false, reason: expect.stringMatching(/locked/) });
  });

  it("remembers only an open event: an archived or closed one opened by its address is not", async () => {
    const { ctx, cookie } = await signedIn();
    for (const game of ["1", "6"]) {
      const res = await load(ctx, cookie, `/team-setup?game=${game}`);
      expect(res.data.event.id).toBe(Number(game));
      expect(res.headers.get("Set-Cookie"), game).toBeNull();
    }
    // With nothing asked and an old remembered archived game, the page shows the open event.
    const old = (await createCookie("gf_game").serialize("1")).split(";")[0]!;
    const bare = await load(ctx, `${cookie}; ${old}`, "/team-setup");
    expect(bare.data.event.id).toBe(5);
  });

  it("after results come in early: locked, saying so without a lock time still to come", async () => {
    const { ctx, cookie } = await signedIn();
    await h.db.update(events).set({ frozenAt: early }).where(eq(events.id, 5));
    try {
      const page = await load(ctx, cookie, "/team-setup?game=5");
      expect(page.data.editable).toEqual({ ok: false, reason: FROZEN_EARLY });
      const saved = await post(ctx, cookie, { game: "5", racer: ids(validTeam()), intent: "save" });
      expect(saved.status).toBe(409);
      expect(saved.body?.reasons).toEqual([FROZEN_EARLY]);
    } finally {
      await h.db.update(events).set({ frozenAt: null }).where(eq(events.id, 5));
    }
  });
});

describe("team setup action: save", () => {
  it("saves a valid team ('Team saved successfully!') and edits it later", async () => {
    const { ctx, user, cookie } = await signedIn();
    const first = await post(ctx, cookie, { game: "5", racer: ids(validTeam()), intent: "save" });
    expect(first).toEqual({
      status: 200,
      location: null,
      body: { ok: true, message: SAVE_OK, reasons: [], draft: validTeam(), captain: null },
    });
    const second = await post(ctx, cookie, { game: "5", racer: ids(validTeam(1)), intent: "save" });
    expect(second.body?.message).toBe(SAVE_OK);
    const team = await getTeam(h.db, user.id, 5);
    expect(team?.racers.map((r) => r.id)).toEqual(validTeam(1));
    expect(team?.version).toBe(2);
  });

  it("refuses an invalid team ('Failed to save team.') with the reasons, changing nothing", async () => {
    const { ctx, user, cookie } = await signedIn();
    await post(ctx, cookie, { game: "5", racer: ids(validTeam()), intent: "save" });
    const menOnly = cheapest("Pro Men", 6);
    const res = await post(ctx, cookie, { game: "5", racer: ids(menOnly), intent: "save" });
    expect(res.status).toBe(422);
    expect(res.body?.ok).toBe(false);
    expect(res.body?.message).toBe(SAVE_FAILED);
    expect(res.body?.reasons).toEqual([
      "Pick at least 2 female riders (Pro Women or 17-18 Women).",
      "Pick at least 1 junior rider (17-18 Men or 17-18 Women).",
    ]);
    expect(res.body?.draft).toEqual(menOnly);
    expect((await getTeam(h.db, user.id, 5))?.racers.map((r) => r.id)).toEqual(validTeam());
  });

  it("ignores prices and categories sent with the form: the database decides", async () => {
    const { ctx, user, cookie } = await signedIn();
    const pricy = [...pool].sort((a, b) => b.price - a.price);
    const team = [
      ...pricy.filter((r) => r.category === "Pro Women").slice(0, 2),
      ...pricy.filter((r) => r.category === "17-18 Men").slice(0, 1),
      ...pricy.filter((r) => r.category === "Pro Men").slice(0, 3),
    ].map((r) => r.id);
    const res = await post(ctx, cookie, {
      game: "5",
      racer: ids(team),
      intent: "save",
      price: ["1", "1", "1", "1", "1", "1"],
      category: "17-18 Women",
      bank: String(BUDGET * 10),
    });
    expect(res.status).toBe(422);
    expect(res.body?.reasons.join(" ")).toMatch(/budget/);
    expect(await getTeam(h.db, user.id, 5)).toBeNull();
  });

  it("locks at exactly 12 hours before the start (12 h + 1 ms before is still open)", async () => {
    const lock = start - LOCK_MS;
    const before = await signedIn(new Date(lock - 1));
    const ok = await post(before.ctx, before.cookie, {
      game: "5",
      racer: ids(validTeam()),
      intent: "save",
    });
    expect(ok.body?.message).toBe(SAVE_OK);

    const at = testContext(h.db, { now: () => new Date(lock) });
    const refused = await post(at, before.cookie, {
      game: "5",
      racer: ids(validTeam(1)),
      intent: "save",
    });
    expect(refused.status).toBe(409);
    expect(refused.body?.message).toBe(SAVE_FAILED);
    expect(refused.body?.reasons[0]).toMatch(/^Teams locked 12 hours before the event starts/);
    expect((await getTeam(h.db, before.user.id, 5))?.racers.map((r) => r.id)).toEqual(validTeam());
  });

  it("refuses closed events, unknown events and forged fields, saying why", async () => {
    const { ctx, user, cookie } = await signedIn();
    const closed = await post(ctx, cookie, { game: "6", racer: ids(validTeam()), intent: "save" });
    expect(closed.status).toBe(409);
    expect(closed.body?.reasons[0]).toMatch(/not open/);

    const unknown = await post(ctx, cookie, {
      game: "999",
      racer: ids(validTeam()),
      intent: "save",
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body?.reasons).toEqual(["Game not found."]);

    const forged: Record<string, string | string[]>[] = [
      { game: "5", racer: ["abc", ...ids(validTeam().slice(1))], intent: "save" },
      { game: "five", racer: ids(validTeam()), intent: "save" },
      { game: "5", racer: ids(validTeam()), intent: "delete-everything" },
      { game: "5", racer: ids(validTeam()) },
      { game: "5", racer: Array.from({ length: 40 }, (_, i) => String(i + 1)), intent: "save" },
    ];
    for (const form of forged) {
      const res = await post(ctx, cookie, form);
      expect(res.status, JSON.stringify(form)).toBe(400);
      expect(res.body?.message).toBe(SAVE_FAILED);
      expect(res.body?.reasons).toHaveLength(1);
    }
    expect(await getTeam(h.db, user.id, 5)).toBeNull();
  });

  it("accepts random and tampered form posts exactly when the rules say the team is valid", async () => {
    const { ctx, user, cookie } = await signedIn();
    const valid = pool.map((r) => String(r.id));
    const field = fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom(...valid) },
      { weight: 1, arbitrary: fc.constantFrom("", "abc", "-4", "0", "1.5", "1e3", "999999", " 7") },
    );
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.array(field, { minLength: 5, maxLength: 7 }),
          fc.shuffledSubarray(ids(validTeam()), { minLength: 6, maxLength: 6 }),
        ),
        async (racer) => {
          const before = await getTeam(h.db, user.id, 5);
          const res = await post(ctx, cookie, { game: "5", racer, intent: "save" });
          // The rules on what the form can mean: every value a positive whole number, then the team.
          const numbers = racer.map((v) => (v.trim() === "" ? Number.NaN : Number(v)));
          const readable = numbers.every((n) => Number.isInteger(n) && n > 0);
          const expected = readable && validateTeam(numbers, pool, { gameId: 5 }).ok;
          expect(res.body?.ok).toBe(expected);
          expect(res.body?.message).toBe(expected ? SAVE_OK : SAVE_FAILED);
          const after = await getTeam(h.db, user.id, 5);
          if (expected) {
            accepted += 1;
            expect(after?.racers.map((r) => r.id)).toEqual(numbers);
          } else {
            expect(after).toEqual(before);
          }
        },
      ),
      { numRuns: 60 },
    );
    expect(accepted).toBeGreaterThan(5);
  });
});

describe("team setup action: drafts without JavaScript", () => {
  it("adds and removes riders through redirects carrying the draft", async () => {
    const { ctx, cookie } = await signedIn();
    const [a, b] = validTeam();
    const added = await post(ctx, cookie, { game: "5", racer: [String(a)], add: String(b) });
    expect(added.status).toBe(303);
    const url = new URL(added.location!, "http://localhost");
    expect(url.pathname).toBe("/team-setup");
    expect(url.searchParams.get("game")).toBe("5");
    expect(url.searchParams.getAll("racer")).toEqual([String(a), String(b)]);
    expect(url.searchParams.get("category")).toBe("pro-women");

    const removed = await post(
      ctx,
      cookie,
      { game: "5", racer: ids([a!, b!]), remove: String(a) },
      "/team-setup?game=5&category=pro-men",
    );
    const after = new URL(removed.location!, "http://localhost");
    expect(after.searchParams.getAll("racer")).toEqual([String(b)]);
    expect(after.searchParams.get("draft")).toBe("1");
    expect(after.searchParams.get("category")).toBe("pro-men");
  });

  it("refuses an add when the team is full, the rider is chosen or the bank is short", async () => {
    const { ctx, cookie } = await signedIn();
    const team = validTeam();
    const extra = cheapest("Pro Men", 1, 5)[0]!;
    const full = await post(ctx, cookie, { game: "5", racer: ids(team), add: String(extra) });
    expect(full.status).toBe(422);
    expect(full.body?.message).toBe("Your team already has 6 riders.");
    expect(full.body?.draft).toEqual(team);

    const again = await post(ctx, cookie, {
      game: "5",
      racer: ids(team.slice(0, 3)),
      add: String(team[0]),
    });
    expect(again.body?.message).toBe("Already on your team.");

    const pricy = [...pool].sort((a, b) => b.price - a.price).map((r) => r.id);
    const rich = pricy.slice(0, 4);
    const cost = rich.reduce((s, id) => s + pool.find((r) => r.id === id)!.price, 0);
    const tooDear = pricy.find(
      (id) => !rich.includes(id) && pool.find((r) => r.id === id)!.price > BUDGET - cost,
    );
    expect(tooDear).toBeDefined();
    const broke = await post(ctx, cookie, { game: "5", racer: ids(rich), add: String(tooDear) });
    expect(broke.body?.message).toMatch(
      /^Not enough money left in your bank \(\$[\d,]+ needed\)\.$/,
    );

    const stranger = await post(ctx, cookie, { game: "5", racer: [], add: "999999" });
    expect(stranger.body?.message).toBe("This rider is not in this event.");
  });
});
