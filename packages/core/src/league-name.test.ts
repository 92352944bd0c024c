import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LEAGUE_NAME_MAX } from "./constants.js";
import { LEAGUE_NAME_HIDDEN_CHARACTERS } from "./name-messages.js";
import { CONTROL_OR_BIDI } from "./names.js";
import { DB_INT_MAX, leagueNameSchema, parseRecordId } from "./schemas.js";

/** Every character the rule refuses, listed by hand (not from the rule's own regex). */
const HIDDEN = [
  ...Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i)),
  ...Array.from({ length: 0x21 }, (_, i) => String.fromCharCode(0x7f + i)),
  "\u061c",
  "\u200e",
  "\u200f",
  "\u2028",
  "\u2029",
  "\u202a",
  "\u202b",
  "\u202c",
  "\u202d",
  "\u202e",
  "\u2066",
  "\u2067",
  "\u2068",
  "\u2069",
];

const visible = fc
  .string({ unit: "grapheme", minLength: 1, maxLength: 20 })
  .filter((s) => !CONTROL_OR_BIDI.test(s) && s.trim().length > 0);

describe("league names", () => {
  it("refuse any control or text-direction character inside the name, saying why", () => {
    fc.assert(
      fc.property(visible, fc.constantFrom(...HIDDEN), visible, (before, hidden, after) => {
        const result = leagueNameSchema.safeParse(`${before}${hidden}${after}`);
        if (`${before}${hidden}${after}`.length > LEAGUE_NAME_MAX) return;
        expect(result.success).toBe(false);
        expect(result.error?.issues.map((i) => i.message)).toContain(LEAGUE_NAME_HIDDEN_CHARACTERS);
      }),
    );
  });

  // Which visible names pass (one alphabet, no invisible characters...): names.test.ts.
  it("accept names in any script", () => {
    for (const name of ["Les Gets Crew", "Équipe 🚵", "فريق", "צוות", "チーム"]) {
      expect(leagueNameSchema.safeParse(name).success, name).toBe(true);
    }
  });

  it("refuse the classic right-to-left override trick", () => {
    const result = leagueNameSchema.safeParse("Top \u202egnp.exe");
    expect(result.error?.issues[0]?.message).toBe(LEAGUE_NAME_HIDDEN_CHARACTERS);
  });
});

describe("record ids", () => {
  it("are the integers 1..2^31-1 written plainly, nothing else", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: DB_INT_MAX }), (n) => {
        expect(parseRecordId(String(n))).toBe(n);
        expect(parseRecordId(n)).toBe(n);
      }),
    );
    fc.assert(
      fc.property(fc.bigInt({ min: BigInt(DB_INT_MAX) + 1n, max: 10n ** 30n }), (n) => {
        expect(parseRecordId(String(n))).toBeNull();
      }),
    );
    for (const bad of [
      "0",
      "-1",
      "1.5",
      "1e3",
      " 1",
      "0x10",
      "",
      "abc",
      "1\u0000",
      null,
      1.5,
      NaN,
    ]) {
      expect(parseRecordId(bad), String(bad)).toBeNull();
    }
  });
});
