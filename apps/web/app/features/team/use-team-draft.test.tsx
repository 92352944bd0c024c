/**
 * The builders' money is the server's (decision 0141): for a team whose racer's price fell, the
 * bank the page shows for a draft is the bank the save reports, and the grid says what the racer
 * sells for. Both builders (`/team-setup` and the partner iframe) use this hook.
 */
import { LOCK_MS } from "@game/core";
import { events, listTeamRacers, racers, saveTeam, type TeamRacerView } from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import { eq } from "drizzle-orm";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, expect, it } from "vitest";
import { cookieFor, makeUser, request, testContext } from "../../../tests/support/context";
import { loadTeamSetup } from "./setup.server";
import { type TeamDraftOptions, useTeamDraft } from "./use-team-draft";

let h: DbHandle;
let pool: TeamRacerView[];
let early: Date;

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  pool = await listTeamRacers(h.db, 5);
  const [round1] = await h.db.select().from(events).where(eq(events.id, 5));
  early = new Date(round1!.startsAt.getTime() - LOCK_MS - 86_400_000);
});
afterAll(() => h.close());

const racer = (name: string) => pool.find((r) => `${r.firstName} ${r.lastName}` === name)!;

/** What the hook shows for a draft, read from a render. */
function shown(opts: TeamDraftOptions, gwin: TeamRacerView) {
  let out: Record<string, unknown> = {};
  function Probe() {
    const d = useTeamDraft(opts);
    out = {
      bank: d.bank,
      allMet: d.allMet,
      priceOfGwin: d.priceOf(gwin),
      gwinMeta: d.slotMeta(gwin),
      blocked: d.blockReason(racer("Dylan Maples")),
    };
    return null;
  }
  renderToStaticMarkup(<Probe />);
  return out;
}

it("shows the bank the save will report: a fallen racer sells for today's price", async () => {
  const ctx = testContext(h.db, { now: () => early });
  const user = await makeUser(h.db);
  const cookie = await cookieFor(ctx, user);
  // $988,000 of racers: a $12,000 bank, Aaron Gwin bought at $60,000.
  const team = [
    "Loïc Bruni",
    "Troy Brosnan",
    "Aaron Gwin",
    "Louise-Anna Ferguson",
    "Lisa Bouladou",
    "Jon Mozell",
  ].map((name) => racer(name).id);
  const gwin = racer("Aaron Gwin");
  const first = await saveTeam(h.db, { userId: user.id, eventId: 5, racerIds: team, now: early });
  expect(first).toMatchObject({ ok: true, bank: 12_000 });
  await h.db.update(racers).set({ price: 57_000 }).where(eq(racers.id, gwin.id));

  const res = await loadTeamSetup(request("/team-setup?game=5", { cookie }), ctx);
  const d = (res as unknown as { data: Awaited<ReturnType<typeof loadTeamSetup>>["data"] }).data;
  const opts = (draft: number[]): TeamDraftOptions => ({
    eventId: 5,
    racers: d.racers,
    budget: d.budget,
    initial: draft,
    held: d.held,
    blocked: null,
  });
  const now = { ...gwin, price: 57_000 };

  // Kept: the bank the player had; the grid says what Gwin sells for.
  expect(shown(opts(team), now)).toMatchObject({
    bank: 12_000,
    allMet: true,
    priceOfGwin: 57_000,
    gwinMeta: "Pro Men · sells for $57,000 (paid $60,000)",
  });

  // Gwin taken off: $57,000 back, not $60,000, so the $70,000 rider is out of reach.
  const without = team.filter((id) => id !== gwin.id);
  expect(shown(opts(without), now)).toMatchObject({
    bank: 12_000 + 57_000,
    blocked: "Not enough money left in your bank",
  });

  // And the save agrees, for a draft with a cheaper rider in his place.
  const spare = pool
    .filter((r) => r.category === "Pro Men" && !team.includes(r.id))
    .sort((a, b) => a.price - b.price || a.id - b.id)[0]!;
  const swapped = [...without, spare.id];
  const page = shown(opts(swapped), now);
  const saved = await saveTeam(h.db, {
    userId: user.id,
    eventId: 5,
    racerIds: swapped,
    now: early,
  });
  expect(saved).toMatchObject({ ok: true, bank: page.bank });
  expect(page.bank).toBe(12_000 + 57_000 - spare.price);
});
