import { createRequire } from "node:module";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PASSWORD_MAX, PASSWORD_MIN } from "./constants.js";
import {
  checkNewPassword,
  commonPasswords,
  PASSWORD_MESSAGES,
  passwordLength,
  passwordProblem,
} from "./password-policy.js";
import { newPasswordSchema } from "./schemas.js";

const require = createRequire(import.meta.url);

/** Strings of `min..max` code points from the whole of Unicode (emoji, accents, CJK...). */
const unicode = (min: number, max: number) =>
  fc.array(fc.string({ unit: "grapheme-composite", minLength: 1, maxLength: 1 }), {
    minLength: min,
    maxLength: max,
  });

describe("password policy", () => {
  it("refuses the passwords the probe got accepted", () => {
    expect(passwordProblem("password")).toBe("too-short");
    expect(passwordProblem("12345678")).toBe("too-short");
    expect(passwordProblem(" ".repeat(8))).toBe("blank");
    expect(passwordProblem(" ".repeat(12))).toBe("blank");
    expect(passwordProblem("\u3000\u00a0\t".repeat(4))).toBe("blank");
    expect(passwordProblem("password123")).toBe("common");
    expect(passwordProblem("PassWord123")).toBe("common");
    expect(passwordProblem("1234567890")).toBe("common");
    expect(passwordProblem("0123456789")).toBe("pattern");
    expect(passwordProblem("aaaaaaaaaaaa")).toBe("pattern");
    expect(passwordProblem("zyxwvutsrqp")).toBe("pattern");
  });

  it("accepts long passphrases in any script", () => {
    for (const p of [
      "correct horse battery",
      "flat-pedals-4ever",
      "ダウンヒルが大好きです",
      "🚵🚵‍♀️⛰️🌲🌲🏁🏁🏆🥇🥈",
    ]) {
      expect(passwordProblem(p)).toBeNull();
    }
  });

  it("counts code points of the NFC form, not UTF-16 units", () => {
    // "é" as e + combining accent is one character after NFC.
    expect(passwordLength("e\u0301".repeat(10))).toBe(10);
    expect(passwordLength("🚵".repeat(10))).toBe(10);
    expect(passwordProblem("🚵🌲".repeat(5))).toBeNull();
    expect(passwordProblem("🚵🌲".repeat(64))).toBeNull();
    expect(passwordProblem(`${"🚵🌲".repeat(64)}x`)).toBe("too-long");
  });

  it("accepts exactly the lengths from the minimum to the maximum (property)", () => {
    fc.assert(
      fc.property(unicode(0, PASSWORD_MAX + 20), (chars) => {
        const password = chars.join("");
        const length = passwordLength(password);
        const problem = passwordProblem(password);
        if (length > PASSWORD_MAX) expect(problem).toBe("too-long");
        else if (length > 0 && password.trim() === "") expect(problem).toBe("blank");
        else if (length < PASSWORD_MIN) expect(problem).toBe("too-short");
        else expect(["pattern", "common", null]).toContain(problem);
      }),
      { numRuns: 500 },
    );
  });

  it("refuses every whitespace-only password, whatever its length (property)", () => {
    const space = fc.constantFrom(" ", "\t", "\n", "\u00a0", "\u2003", "\u3000");
    fc.assert(
      fc.property(fc.array(space, { minLength: 1, maxLength: PASSWORD_MAX }), (chars) => {
        expect(passwordProblem(chars.join(""))).toBe("blank");
      }),
    );
  });

  it("refuses every listed password in any letter case (property)", () => {
    const list = [...commonPasswords()];
    fc.assert(
      fc.property(
        fc.constantFrom(...list),
        fc.array(fc.boolean(), { minLength: 128, maxLength: 128 }),
        (word, upper) => {
          const cased = [...word].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join("");
          expect(["common", "pattern"]).toContain(passwordProblem(cased));
        },
      ),
    );
  });

  it("gives a message that says why for every refusal, and only then (property)", () => {
    fc.assert(
      fc.property(unicode(0, 140), (chars) => {
        const password = chars.join("");
        const problem = passwordProblem(password);
        expect(checkNewPassword(password)).toBe(problem ? PASSWORD_MESSAGES[problem] : null);
        const parsed = newPasswordSchema.safeParse(password);
        if (password === "") expect(parsed.success).toBe(false);
        else expect(parsed.success).toBe(problem === null);
      }),
      { numRuns: 300 },
    );
  });

  it("ships every common password the length rule would let through, from the source list", () => {
    const source: string[] = require("@zxcvbn-ts/language-common/src/passwords.json");
    const expected = new Set(
      source
        .map((w) => w.normalize("NFC").toLowerCase())
        .filter((w) => {
          const n = passwordLength(w);
          return n >= PASSWORD_MIN && n <= PASSWORD_MAX && !/\s/u.test(w);
        }),
    );
    expect(expected.size).toBeGreaterThan(1000);
    expect(new Set(commonPasswords())).toEqual(expected);
  });
});
