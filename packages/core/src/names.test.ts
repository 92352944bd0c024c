import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LEAGUE_NAME_MAX } from "./constants.js";
import { NAME_MESSAGES } from "./name-messages.js";
import { MAX_STACKED_MARKS, nameProblem } from "./names.js";
import { leagueNameSchema, usernameSchema } from "./schemas.js";

const RUNS = { numRuns: 300 };

const messages = (schema: typeof leagueNameSchema, value: string) => {
  const r = schema.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => i.message);
};

/** Characters that draw nothing, listed by hand (not from the rule's own properties). */
const INVISIBLE = [
  "\u00ad", // soft hyphen
  "\u034f", // combining grapheme joiner
  "\u115f", // Hangul choseong filler
  "\u1160", // Hangul jungseong filler
  "\u180e", // Mongolian vowel separator
  "\u200b", // zero width space
  "\u2060", // word joiner
  "\u2061", // function application
  "\u2062", // invisible times
  "\u2063", // invisible separator
  "\u2064", // invisible plus
  "\u2800", // braille pattern blank
  "\u3164", // Hangul filler
  "\uffa0", // halfwidth Hangul filler
  "\u{1d173}", // musical symbol begin beam
  "\u{e0001}", // language tag
  "\u{e0020}", // tag space
  "\u{e0041}", // tag latin capital A
  "\u{e007f}", // cancel tag
  "\u{e0100}", // variation selector-17
  "\ue000", // private use
];
/** Combining marks (Latin accents), listed by hand. */
const MARKS = Array.from({ length: 0x30 }, (_, i) => String.fromCodePoint(0x300 + i));

/** Letters of one script each, listed by hand, for names that are in one alphabet. */
const ALPHABETS: Record<string, string> = {
  latin: "abcdefghijkmnopqrstuvwxyzABCDEFGHJKMNPQRSTUVWXYZéèüößñçåø",
  cyrillic: "абвгдежзийклмнопрстуфхцчшщыэюяАБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЫЭЮЯ",
  greek: "αβγδεζηθικλμνξοπρστυφχψωΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ",
  arabic: "ابتثجحخدذرزسشصضطظعغفقكلمنهوي",
  hebrew: "אבגדהוזחטיכלמנסעפצקרשת",
  thai: "กขคงจฉชซญดตถทนบปผพฟมยรลวสหอฮ",
  devanagari: "अआइईउऊएऐओऔकखगघचछजझटठडढणतथदधनपफबभमयरलवशषसह",
  georgian: "აბგდევზთიკლმნოპჟრსტუფქღყშჩცძწჭხჯჰ",
  japanese: "あいうえおかきくけこアイウエオカキクケコ日本山川田中",
  korean: "가나다라마바사아자차카타파하한국",
  han: "中国人大小山水火木金土",
  digits: "0123456789",
};

const word = (alphabet: string, max = 8) =>
  fc.string({ unit: fc.constantFrom(...alphabet), minLength: 1, maxLength: max });
/** A name of words of one alphabet (digits may join any of them). */
const oneAlphabetName = fc
  .constantFrom(...Object.keys(ALPHABETS).filter((k) => k !== "digits"))
  .chain((script) =>
    fc
      .array(word(ALPHABETS[script]! + ALPHABETS.digits), { minLength: 1, maxLength: 4 })
      .map((words) => words.join(" ")),
  )
  .filter((n) => n.length <= LEAGUE_NAME_MAX);

describe("names: nothing invisible (UTS #39)", () => {
  it("refuses a name made only of invisible characters, with or without marks on them", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...INVISIBLE, ...MARKS.slice(0, 4)), {
          minLength: 1,
          maxLength: 12,
        }),
        (chars) => {
          const name = chars.join("");
          fc.pre(chars.some((c) => INVISIBLE.includes(c)));
          expect(leagueNameSchema.safeParse(name).success).toBe(false);
          expect(usernameSchema.safeParse(name).success).toBe(false);
        },
      ),
      RUNS,
    );
  });

  it("refuses an invisible character anywhere in a name, saying why", () => {
    fc.assert(
      fc.property(oneAlphabetName, fc.constantFrom(...INVISIBLE), fc.nat(), (name, hidden, at) => {
        const i = at % (name.length + 1);
        const disguised = `${name.slice(0, i)}${hidden}${name.slice(i)}`;
        fc.pre(disguised.length <= LEAGUE_NAME_MAX);
        expect(messages(leagueNameSchema, disguised)).toEqual([NAME_MESSAGES.league.invisible]);
      }),
      RUNS,
    );
  });

  it("refuses each blank name the probe sent", () => {
    for (const name of [
      "\u200b\u200b\u200b",
      "\u2060",
      "\u3164\u3164",
      "\u2800\u2800\u2800",
      "\u00ad\u00ad",
      "\u{e0047}\u{e0046}",
    ]) {
      expect(messages(leagueNameSchema, name), codePoints(name)).toEqual([
        NAME_MESSAGES.league.invisible,
      ]);
    }
  });

  it("keeps the joiners and selectors emoji and some scripts need", () => {
    for (const name of [
      "\u{1f468}\u200d\u{1f469}\u200d\u{1f467} Family", // family emoji
      "\u2764\ufe0f DH", // red heart with its emoji selector
      "1\ufe0f\u20e3 Crew", // keycap one
      "\u{1f44d}\u{1f3fd} Good", // thumbs up, medium skin tone
      "\u{1f3f4}\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f} Scots", // flag of Scotland
      "\u{1f6b5}\u{1f3fb}\u200d\u2640\ufe0f Shredders", // woman mountain biking, light skin
      "\u0645\u06cc\u200c\u062e\u0648\u0627\u0645", // Persian with a non-joiner
      "\u0915\u094d\u200d\u0937", // Devanagari half form with a joiner
    ]) {
      expect(leagueNameSchema.safeParse(name).success, codePoints(name)).toBe(true);
    }
    // The same joiners with nothing to join are hidden characters.
    for (const name of ["a\u200db", "Top\u200cTeam", "\u{1f3f4}\u{e0067} Flag", "\ufe0fDH"]) {
      expect(messages(leagueNameSchema, name), codePoints(name)).toEqual([
        NAME_MESSAGES.league.invisible,
      ]);
    }
  });
});

describe("names: combining marks", () => {
  it(`accept up to ${MAX_STACKED_MARKS} different marks on a letter, refuse more`, () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom(...MARKS), { minLength: 1, maxLength: 9 }),
        (marks) => {
          const name = `Crew a${marks.join("")}`;
          const ok = leagueNameSchema.safeParse(name).success;
          expect(ok).toBe(marks.length <= MAX_STACKED_MARKS);
          if (!ok) expect(messages(leagueNameSchema, name)).toEqual([NAME_MESSAGES.league.marks]);
        },
      ),
      RUNS,
    );
  });

  it("refuse the same mark twice in a row and marks on nothing", () => {
    fc.assert(
      fc.property(fc.constantFrom(...MARKS), (mark) => {
        expect(leagueNameSchema.safeParse(`Crew a${mark}${mark}`).success).toBe(false);
        expect(leagueNameSchema.safeParse(`${mark}Crew`).success).toBe(false);
        expect(leagueNameSchema.safeParse(`Crew ${mark}`).success).toBe(false);
      }),
      RUNS,
    );
    for (const name of ["Tiếng Việt", "Ñandú", "Crème brûlée", "\u0e01\u0e34\u0e48"]) {
      expect(leagueNameSchema.safeParse(name).success, name).toBe(true);
    }
  });
});

describe("names: one alphabet (UTS #39 Highly Restrictive)", () => {
  it("accept any name written in one alphabet", () => {
    fc.assert(
      fc.property(oneAlphabetName, (name) => {
        expect(leagueNameSchema.safeParse(name).success).toBe(true);
      }),
      RUNS,
    );
  });

  it("refuse a Latin name with one Cyrillic or Greek look-alike in it", () => {
    const lookAlikes = ["\u0430", "\u0435", "\u043e", "\u0440", "\u0441", "\u041e", "\u03bf"];
    fc.assert(
      fc.property(word(ALPHABETS.latin!), fc.constantFrom(...lookAlikes), fc.nat(), (w, c, at) => {
        const i = at % (w.length + 1);
        const name = `${w.slice(0, i)}${c}${w.slice(i)}`;
        expect(messages(leagueNameSchema, name)).toEqual([NAME_MESSAGES.league.scripts]);
      }),
      RUNS,
    );
    expect(messages(leagueNameSchema, "\u041efficial")).toEqual([NAME_MESSAGES.league.scripts]);
  });

  it("let Latin go with Japanese, Korean or Chinese, and with emoji, digits and punctuation", () => {
    for (const name of [
      "Team \u30c1\u30fc\u30e0 \u65e5\u672c",
      "\ud55c\uad6d Team",
      "\u4e2d\u56fd DH",
      "Les Gets 2025 \u{1f6b5}!",
    ]) {
      expect(leagueNameSchema.safeParse(name).success, name).toBe(true);
    }
    // Two alphabets otherwise, and letters of scripts outside everyday use (Cherokee).
    for (const name of [
      "\u041c\u043e\u0441\u043a\u0432\u0430 DH",
      "Team \u05e6\u05d5\u05d5\u05ea",
      "\u13da\u13a2\u13b5\u13ac",
    ]) {
      expect(messages(leagueNameSchema, name), name).toEqual([NAME_MESSAGES.league.scripts]);
    }
  });
});

describe("names: no web addresses", () => {
  const label = fc
    .string({
      unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz-"),
      minLength: 2,
      maxLength: 10,
    })
    .filter((s) => /^[a-z].*[a-z]$/.test(s));
  it("refuse a domain, a URL or an e-mail address in either kind of name", () => {
    fc.assert(
      fc.property(
        label,
        fc.constantFrom("com", "net", "org", "de", "io", "xyz", "team", "bike", "app"),
        fc.constantFrom("", "www.", "http://", "https://"),
        (host, tld, prefix) => {
          const address = `${prefix}${host}.${tld}`;
          expect(nameProblem(address, "username")).toBe("web-address");
          expect(nameProblem(`Win at ${address} now`, "league")).toBe("web-address");
          expect(nameProblem(`${host}@${host}.${tld}`, "league")).toBe("web-address");
        },
      ),
      RUNS,
    );
    // Written with a fullwidth or ideographic full stop, it is still an address.
    expect(nameProblem("evil-prize\uff0ecom", "league")).toBe("web-address");
    expect(nameProblem("evil-prize\u3002com", "league")).toBe("web-address");
  });

  it("accept dotted names that are no address", () => {
    for (const name of ["john.doe", "j.r.r", "les.gets.dh", "A.B"]) {
      expect(usernameSchema.safeParse(name).success, name).toBe(true);
    }
  });
});

describe("usernames: reserved and impersonating names", () => {
  const shapes = (w: string) =>
    fc
      .tuple(
        fc.array(fc.boolean(), { minLength: w.length, maxLength: w.length }),
        fc.constantFrom("", "_", ".", "-"),
        fc.constantFrom("", "1", "2024", "_hq"),
        fc.boolean(),
      )
      .map(([upper, sep, tail, before]) => {
        const cased = [...w].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join("");
        // Not a dot here: "hq.support" is a web address (.support is a top-level domain).
        const joiner = sep === "-" ? "-" : "_";
        if (tail === "_hq") return before ? `hq${joiner}${cased}` : `${cased}${joiner}hq`;
        return `${cased}${sep && tail ? sep : ""}${tail}`;
      });

  it("refuse the site's staff and system words, in any case, with digits or beside other words", () => {
    fc.assert(
      fc.property(
        fc
          .constantFrom("admin", "administrator", "support", "moderator", "staff", "root", "system")
          .chain(shapes),
        (name) => {
          expect(messages(usernameSchema, name), name).toEqual([NAME_MESSAGES.username.reserved]);
        },
      ),
      RUNS,
    );
  });

  it("refuse the game's name however it is written", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("Gravity", "gravity", "GRAVITY", "Gr4vity", "Grav1ty", "Gravlty"),
        fc.constantFrom("", "_", ".", "-"),
        fc.constantFrom("Fantasy", "fantasy", "F4ntasy", "Fantasy5"),
        fc.constantFrom("", "HQ", "_team"),
        (a, sep, b, tail) => {
          const name = `${a}${sep}${b}${tail}`;
          expect(messages(usernameSchema, name), name).toEqual([NAME_MESSAGES.username.reserved]);
          expect(messages(leagueNameSchema, `${a} ${b} Official`)).toEqual([
            NAME_MESSAGES.league.reserved,
          ]);
        },
      ),
      RUNS,
    );
  });

  it("refuse each name the probe signed up with", () => {
    for (const name of ["admin", "Administrator", "GravityFantasy", "support"]) {
      expect(messages(usernameSchema, name), name).toEqual([NAME_MESSAGES.username.reserved]);
    }
    expect(messages(usernameSchema, "www.evil-prize.com")).toEqual([
      NAME_MESSAGES.username["web-address"],
    ]);
  });

  it("accept ordinary names, even with a staff word inside a longer word", () => {
    for (const name of [
      "rider_1",
      "Forgetful_Fred",
      "badminton_fan",
      "officially_slow",
      "staffordshire",
      "Roots_rider",
      "supportive.sam",
      "Modena_DH",
    ]) {
      expect(usernameSchema.safeParse(name).success, name).toBe(true);
    }
    // League names may say "admin" or "support": only the game's own name is kept back.
    expect(leagueNameSchema.safeParse("Admin Support Crew").success).toBe(true);
  });
});

function codePoints(s: string): string {
  return [...s].map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase()}`).join(" ");
}
