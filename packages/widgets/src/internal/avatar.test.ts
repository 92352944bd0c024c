/**
 * The generated avatar's rule (docs/decisions/0111): deterministic, initials, and contrast that
 * reads for every hue and lightness band. The widgets hold the one copy of the rule.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { avatarInitials, racerAvatar } from "./avatar.js";

// The colour arithmetic the tests judge contrast with (WCAG 2); the avatar itself needs none.
/** The contrast the initials keep against their background (WCAG AA for normal text). */
const AVATAR_MIN_CONTRAST = 4.5;

/** `hsl(h,s%,l%)` -> [r, g, b] in 0..255 (CSS's conversion). */
function hslToRgb(color: string): [number, number, number] {
  const [h = 0, s = 0, l = 0] = (color.match(/[\d.]+/g) ?? []).map(Number);
  const a = (s / 100) * Math.min(l / 100, 1 - l / 100);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return l / 100 - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
  };
  return [f(0), f(8), f(4)].map((v) => Math.round(v * 255)) as [number, number, number];
}

function luminance([r, g, b]: [number, number, number]): number {
  const lin = (v: number) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG contrast ratio (1 to 21) of two colours written as `hsl(h,s%,l%)` or `#rrggbb`. */
function contrastRatio(a: string, b: string): number {
  const rgb = (c: string) =>
    c.startsWith("#")
      ? ([1, 3, 5].map((i) => Number.parseInt(c.slice(i, i + 2), 16)) as [number, number, number])
      : hslToRgb(c);
  const [x, y] = [luminance(rgb(a)), luminance(rgb(b))];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

const namePart = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom("Loïc", "Élise", "Jean-Pierre", "van der Poel", "Ñuñez", "O'Brien", "", " "),
  fc.string({ unit: "grapheme", maxLength: 12 }),
);
const racer = fc.record({
  firstName: namePart,
  lastName: namePart,
  origin: fc.oneof(fc.constantFrom("FRA", "GBR", "USA", "AUS", null), fc.string({ maxLength: 4 })),
});

describe("racerAvatar", () => {
  it("is deterministic: the same racer always gets the same avatar", () => {
    fc.assert(
      fc.property(racer, (r) => {
        expect(racerAvatar({ ...r })).toEqual(racerAvatar({ ...r }));
      }),
    );
  });

  it("keeps the initials readable: contrast at least 4.5:1, colours as CSS hsl()", () => {
    fc.assert(
      fc.property(racer, (r) => {
        const a = racerAvatar(r);
        expect(a.background).toMatch(/^hsl\(\d{1,3},\d{1,3}%,\d{1,3}%\)$/);
        expect(a.foreground).toMatch(/^hsl\(\d{1,3},\d{1,3}%,\d{1,3}%\)$/);
        expect(contrastRatio(a.background, a.foreground)).toBeGreaterThanOrEqual(
          AVATAR_MIN_CONTRAST,
        );
      }),
      { numRuns: 1000 },
    );
  });

  it("does not change with case or spacing, but with the nation", () => {
    const base = racerAvatar({ firstName: "Loïc", lastName: "Bruni", origin: "FRA" });
    expect(racerAvatar({ firstName: " loïc ", lastName: "BRUNI", origin: "fra" })).toEqual(base);
    // Two racers of the same name from different nations: at least one of 20 pairs differs
    // (a hash may collide for one pair, never for all).
    const names = ["Loïc Bruni", "Amaury Pierron", "Rachel Atherton", "Jackson Goldstone"];
    const differing = names.filter((n) => {
      const [firstName = "", lastName = ""] = n.split(" ");
      return (
        racerAvatar({ firstName, lastName, origin: "FRA" }).background !==
        racerAvatar({ firstName, lastName, origin: "GBR" }).background
      );
    });
    expect(differing.length).toBeGreaterThan(0);
  });

  it("spreads racers over many colour pairs (the seed's 81 racers look distinct)", () => {
    const looks = new Set<string>();
    for (let i = 0; i < 81; i++) {
      const a = racerAvatar({ firstName: `Rider${i}`, lastName: "Test", origin: "FRA" });
      looks.add(a.background);
    }
    expect(looks.size).toBeGreaterThan(70);
  });
});

describe("contrast of every colour pair the rule can give", () => {
  it("is at least 4.5:1 for each hue, saturation and lightness step (not just sampled racers)", () => {
    let worst = 21;
    for (let hue = 0; hue < 360; hue++) {
      for (const sat of [45, 55, 65, 75]) {
        for (const step of [0, 1, 2]) {
          const dark = contrastRatio(`hsl(${hue},${sat}%,${18 + step * 3}%)`, "hsl(0,0%,100%)");
          const light = contrastRatio(
            `hsl(${hue},${sat}%,${84 + step * 3}%)`,
            `hsl(${hue},50%,18%)`,
          );
          worst = Math.min(worst, dark, light);
        }
      }
    }
    expect(worst).toBeGreaterThanOrEqual(AVATAR_MIN_CONTRAST);
  });

  it("measures contrast as WCAG does", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrastRatio("hsl(0,0%,100%)", "#ffffff")).toBeCloseTo(1, 5);
    expect(contrastRatio("#767676", "#ffffff")).toBeCloseTo(4.54, 2);
  });
});

describe("avatarInitials", () => {
  it("takes the first letter of the first and last name, accents kept", () => {
    expect(avatarInitials("Loïc", "Bruni")).toBe("LB");
    expect(avatarInitials("élise", "ørsted")).toBe("ÉØ");
    expect(avatarInitials("Jean-Pierre", "Lopes")).toBe("JL");
    expect(avatarInitials("Anne", "Smith-Jones")).toBe("AS");
    expect(avatarInitials("Mathieu", "van der Poel")).toBe("MV");
  });

  it("handles one name, empty names and names without letters", () => {
    expect(avatarInitials("Pelé", "")).toBe("P");
    expect(avatarInitials("", "Bruni")).toBe("B");
    expect(avatarInitials("", "Marie-Laure Dupont")).toBe("M");
    expect(avatarInitials("", "")).toBe("?");
    expect(avatarInitials("--", "...")).toBe("?");
  });

  it("gives one or two upper-case letters or digits for any name", () => {
    fc.assert(
      fc.property(namePart, namePart, (first, last) => {
        const initials = avatarInitials(first, last);
        expect(initials).toMatch(/^(\?|([\p{L}\p{N}]\p{M}*){1,2})$/u);
        // Decomposed and composed spellings of a name give the same initials.
        expect(avatarInitials(first.normalize("NFD"), last.normalize("NFD"))).toBe(
          avatarInitials(first.normalize("NFC"), last.normalize("NFC")),
        );
      }),
    );
  });

  it("upper-cases lower-case initials", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("a", "b", "é", "z", "ø"),
        fc.constantFrom("c", "ü", "x"),
        (f, l) => {
          expect(avatarInitials(`${f}rest`, `${l}rest`)).toBe(`${f}${l}`.toUpperCase());
        },
      ),
    );
  });
});
