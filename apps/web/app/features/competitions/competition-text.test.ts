import { describe, expect, it } from "vitest";
import { disciplineAndSeason, durationInWords, nextRoundCountdown } from "./competition-text";

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describe("durationInWords", () => {
  it.each([
    [-5, "less than a minute"],
    [59_999, "less than a minute"],
    [MIN, "1 minute"],
    [59 * MIN, "59 minutes"],
    [HOUR, "1 hour"],
    [47 * HOUR + 59 * MIN, "47 hours"],
    [2 * DAY, "2 days"],
    [59 * DAY, "59 days"],
    [60 * DAY, "about 2 months"],
    [365 * DAY, "about 12 months"],
  ])("%i ms is %s", (ms, words) => {
    expect(durationInWords(ms)).toBe(words);
  });
});

describe("nextRoundCountdown", () => {
  const start = new Date("2027-04-18T16:00:00Z");
  const lock = new Date("2027-04-18T04:00:00Z");
  const round = { status: "open" as const, startsAt: start, lockAt: lock, settled: false };

  it("counts down to the lock, then to the start, then waits for results", () => {
    expect(nextRoundCountdown(round, lock.getTime() - 3 * DAY)).toBe("Teams lock in 3 days.");
    expect(nextRoundCountdown(round, lock)).toBe("Teams are locked; the race starts in 12 hours.");
    expect(nextRoundCountdown(round, start)).toBe("Racing now; results to come.");
    expect(nextRoundCountdown({ ...round, settled: true }, start)).toBe("Results are in.");
  });

  it("says a round not open yet will open", () => {
    expect(nextRoundCountdown({ ...round, status: "closed" }, lock.getTime() - 2 * HOUR)).toBe(
      "Opens for teams soon; teams lock in 2 hours.",
    );
  });
});

it("names the discipline with the season when there is one", () => {
  expect(disciplineAndSeason({ discipline: "cross-country", season: "2028" })).toBe(
    "Cross-country, 2028",
  );
  expect(disciplineAndSeason({ discipline: "downhill", season: "" })).toBe("Downhill");
});
