import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { reminderReason, teamInRound } from "./round-entries.js";

const team = fc.uniqueArray(fc.integer({ min: 1, max: 30 }), { maxLength: 8 });
const entries = fc
  .dictionary(fc.integer({ min: 1, max: 30 }).map(String), fc.record({ withdrawn: fc.boolean() }))
  .map((d) => new Map(Object.entries(d).map(([k, v]) => [Number(k), v])));

describe("a team in a round", () => {
  it("plays exactly when every racer has an entry; a withdrawn racer still has one", () => {
    fc.assert(
      fc.property(team, entries, (people, round) => {
        const t = teamInRound(people, round);
        expect(t.plays).toBe(people.every((p) => round.has(p)));
        expect(t.missing).toEqual(people.filter((p) => !round.has(p)));
        expect(t.withdrawn).toEqual(people.filter((p) => round.get(p)?.withdrawn));
      }),
      { numRuns: 300 },
    );
  });

  it("is due a reminder without a team, or with a racer missing or withdrawn", () => {
    expect(reminderReason(null)).toBe("no-team");
    const round = new Map([
      [1, { withdrawn: false }],
      [2, { withdrawn: true }],
    ]);
    expect(reminderReason(teamInRound([1], round))).toBeNull();
    expect(reminderReason(teamInRound([1, 2], round))).toBe("fix");
    expect(reminderReason(teamInRound([1, 3], round))).toBe("fix");
  });
});
