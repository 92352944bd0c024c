/**
 * League names other players read (decision 0152): the create action refuses invisible,
 * look-alike and official-sounding names without JavaScript too, with a notice that says why.
 */
import { LOCK_MS, NAME_MESSAGES } from "@game/core";
import { events, leagues, listTeamRacers, saveTeam, type UserRow } from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { action } from "~/routes/leagues.actions";
import { cookieFor, makeUser, request, testContext } from "../../../tests/support/context";
import { LEAGUE_NOTICES, noticeFor } from "./notices";

let h: DbHandle;
let now: Date;
let owner: UserRow;

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  const [round1] = await h.db.select().from(events).where(eq(events.id, 5));
  now = new Date(round1!.startsAt.getTime() - LOCK_MS - 86_400_000);
  const pool = await listTeamRacers(h.db, 5);
  const cheapest = (c: string, k: number) =>
    pool
      .filter((r) => r.category === c)
      .sort((a, b) => a.price - b.price)
      .slice(0, k);
  const racerIds = [
    ...cheapest("Pro Women", 2),
    ...cheapest("17-18 Men", 1),
    ...cheapest("Pro Men", 3),
  ].map((r) => r.id);
  owner = await makeUser(h.db);
  const saved = await saveTeam(h.db, { userId: owner.id, eventId: 5, racerIds, now });
  if (!saved.ok) throw new Error(saved.reason);
});
afterAll(() => h?.close());

async function create(name: string) {
  const context = testContext(h.db, { now: () => now });
  const res = await action({
    request: request("/leagues/actions", {
      cookie: await cookieFor(context, owner),
      form: { intent: "create", name, game: "5", redirectTo: "/game/5" },
    }),
    context,
    params: {},
  });
  expect(res.status).toBe(302);
  const url = new URL(res.headers.get("Location")!, "http://localhost");
  return url.searchParams.get("leagueNotice");
}

const ownLeagues = () => h.db.select().from(leagues).where(eq(leagues.ownerId, owner.id));

describe("creating a league: names", () => {
  it("refuses the probe's blank, stacked, look-alike and official names, saying why", async () => {
    const refused = [
      ["\u200b\u200b\u200b", "name-invisible"],
      ["\u2060\u2060", "name-invisible"],
      ["\u3164", "name-invisible"],
      ["\u2800\u2800", "name-invisible"],
      ["\u00ad\u00ad\u00ad", "name-invisible"],
      ["\u{e0054}\u{e0045}\u{e0041}\u{e004d}", "name-invisible"],
      ["Z\u0301\u0300\u0302\u0303\u0304\u0306\u0307", "name-marks"],
      ["\u041efficial", "name-scripts"],
      ["Prizes at www.evil-prize.com", "name-web-address"],
      ["Gravity Fantasy Official", "name-reserved"],
    ] as const;
    for (const [name, code] of refused) {
      expect(await create(name), name).toBe(code);
    }
    expect(await ownLeagues()).toEqual([]);
    // Each notice is the rule's own sentence.
    expect(noticeFor("name-invisible")?.text).toBe(NAME_MESSAGES.league.invisible);
    expect(LEAGUE_NOTICES["name-scripts"].text).toBe(NAME_MESSAGES.league.scripts);
    expect(LEAGUE_NOTICES["name-reserved"].text).toBe(NAME_MESSAGES.league.reserved);
  });

  it("creates leagues named in any one alphabet, with emoji", async () => {
    for (const name of ["Équipe 🚵", "Москва", "チーム 日本 DH", "👨‍👩‍👧 Family"]) {
      expect(await create(name), name).toBe("created");
    }
    expect((await ownLeagues()).map((l) => l.name).sort()).toEqual(
      ["Équipe 🚵", "Москва", "チーム 日本 DH", "👨‍👩‍👧 Family"].sort(),
    );
  });
});
