/**
 * The racer page names the round of every price: a racer has one entry per round, and a link
 * from an old team lands on that round's entry, whose price is not today's.
 */
import { formatPrice } from "@game/core";
import { countOpenPicks, racers } from "@game/db";
import { createTestDb, type DbHandle, putTeam } from "@game/db/testing";
import { and, eq } from "drizzle-orm";
import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { makeUser, request, testContext } from "../../tests/support/context";
import { racerRounds } from "../features/profiles/racer-rounds";

// The page outside a Remix app: its data from the loader, links as plain anchors.
const page = vi.hoisted(() => ({ data: undefined as unknown }));
vi.mock("@remix-run/react", () => ({
  useLoaderData: () => page.data,
  useLocation: () => ({ pathname: "/racers/1" }),
  useNavigation: () => ({ state: "idle" }),
  Link: ({ to, children, ...rest }: { to: string; children?: ReactNode }) => (
    <a href={to} {...rest}>
      {children}
    </a>
  ),
}));
const route = await import("./racers.$id");

const ROUND_1 = "Pro Downhill Series Round 1: Windrock";
const ROUND_2 = "Pro Downhill Series Round 2: Snowshoe";

let h: DbHandle;
type Entry = typeof racers.$inferSelect;
/** A round-1 racer who is entered in round 2 at a higher price, and one who is not. */
let moved: Entry;
let moved2: Entry;
let stayed: Entry;

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  const round1 = await h.db
    .select()
    .from(racers)
    .where(and(eq(racers.gameId, 5), eq(racers.category, "Pro Men")))
    .orderBy(racers.id);
  moved = round1[0]!;
  stayed = round1[1]!;
  // The same person in round 2 (linked by name within the series), 15% dearer after a podium.
  const [inserted] = await h.db
    .insert(racers)
    .values({
      gameId: 6,
      category: moved.category,
      firstName: moved.firstName,
      lastName: moved.lastName,
      nameKey: moved.nameKey,
      price: Math.round(moved.price * 1.15),
    })
    .returning();
  moved2 = inserted!;
});
afterAll(() => h.close());

/** The racer page for `id` as a visitor of `game` (the current round) sees it. */
async function view(id: number, game?: number) {
  const data = await route.loader({
    request: request(`/racers/${id}${game ? `?game=${game}` : ""}`),
    context: testContext(h.db),
    params: { id: String(id) },
  });
  page.data = data;
  const html = renderToStaticMarkup(<route.default />);
  // Text as read: tags dropped, whitespace collapsed.
  const text = html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, " ");
  return { data, html, text };
}

describe("the racer page", () => {
  it("reached from a round-1 team while round 2 is current: both prices say their round", async () => {
    const { data, html, text } = await view(moved.id, 6);
    expect(data.rounds).toMatchObject({
      entry: { racerId: moved.id, eventId: 5, name: ROUND_1, price: moved.price },
      current: { racerId: moved2.id, eventId: 6, name: ROUND_2, price: moved2.price },
      isCurrent: false,
      relation: "earlier",
    });
    expect(text).toContain(`Price ${formatPrice(moved.price)} in ${ROUND_1}`);
    expect(text).toContain(`Price now ${formatPrice(moved2.price)} in ${ROUND_2}`);
    // It says the page is an earlier round, and links to the current round's entry.
    const name = `${moved.firstName} ${moved.lastName}`;
    expect(text).toContain(`This page shows ${name} in ${ROUND_1} , an earlier round`);
    expect(html).toContain(`<a href="/racers/${moved2.id}">See ${name} in the current round</a>`);
    // The rounds list gives each round's price under its name.
    expect(text).toContain(`${ROUND_1} This page Price ${formatPrice(moved.price)}.`);
    expect(text).toContain(`${ROUND_2} Current round Price ${formatPrice(moved2.price)}.`);
  });

  it("shows the current round's entry with its price now, and no notice", async () => {
    const { data, text } = await view(moved2.id, 6);
    expect(data.rounds).toMatchObject({ isCurrent: true, current: null, relation: null });
    expect(text).toContain(`Price now ${formatPrice(moved2.price)} in ${ROUND_2}`);
    expect(text).not.toContain("This page shows");
    expect(text).not.toContain(`in ${ROUND_1} , an earlier round`);
  });

  it("says so when the racer has no entry in the current round", async () => {
    const { data, text } = await view(stayed.id, 6);
    expect(data.rounds).toMatchObject({ current: null, relation: "earlier" });
    const name = `${stayed.firstName} ${stayed.lastName}`;
    expect(text).toContain(`Price ${formatPrice(stayed.price)} in ${ROUND_1}`);
    expect(text).toContain(`${name} is not entered in the current round, ${ROUND_2}.`);
    expect(text).not.toContain("Price now");
  });

  it("shows the season's points, their value per 100,000 and the counted share of teams", async () => {
    const before = await view(moved.id, 5);
    expect(before.text).toContain("Season points 0 0 per 100,000");
    expect(before.text).toContain(`Picked by Not counted yet of ${ROUND_1}'s teams`);
    // One team, holding the racer; then the 10-minute count.
    const fan = await makeUser(h.db);
    await putTeam(h.db, fan.id, 5, [moved.id]);
    await countOpenPicks(h.db, new Date());
    const counted = await view(moved.id, 5);
    expect(counted.data.racer.pickedByPercent).toBe(100);
    expect(counted.text).toContain(`Picked by 100 % of ${ROUND_1}'s teams`);
  });

  it("in the round it belongs to, the price is the price now", async () => {
    const { text } = await view(stayed.id);
    expect(text).toContain(`Price now ${formatPrice(stayed.price)} in ${ROUND_1}`);
    expect(text).not.toContain("This page shows");
  });
});

describe("racerRounds", () => {
  const r1 = { racerId: 1, eventId: 5, name: "R1", price: 100, startsAt: "2027-04-18T16:00:00Z" };
  const r2 = { racerId: 9, eventId: 6, name: "R2", price: 115, startsAt: "2027-05-16T16:00:00Z" };
  const game = (e: typeof r1) => ({ id: e.eventId, name: e.name, startsAt: e.startsAt });

  it("places the page's entry against the current round", () => {
    expect(racerRounds(1, [r1, r2], game(r2))).toEqual({
      entry: r1,
      current: r2,
      isCurrent: false,
      relation: "earlier",
      currentRoundName: "R2",
    });
    expect(racerRounds(9, [r1, r2], game(r1))).toMatchObject({
      current: r1,
      relation: "later",
    });
    expect(racerRounds(9, [r1, r2], game(r2))).toMatchObject({ isCurrent: true, current: null });
    expect(racerRounds(1, [r1, r2], null)).toMatchObject({ current: null, relation: null });
    expect(racerRounds(2, [r1, r2], game(r1))).toBeNull();
  });
});
