import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defuseLinks, looksLinkable, mailboxKey, maskEmail } from "./mail-text.js";

const word = fc.string({
  unit: fc.constantFrom(..."abcxyzéø0129-_"),
  minLength: 1,
  maxLength: 8,
});
/** Addresses as spammers write them: schemes, www, wide dots, paths, e-mail addresses. */
const address = fc
  .tuple(
    fc.constantFrom("", "http://", "https://", "HTTPS://", "ftp://", "www.", "mailto:me@"),
    fc.array(word, { minLength: 1, maxLength: 3 }),
    fc.constantFrom(".", "\u3002", "\uFF0E", "\uFF61", "\u2024"),
    fc.constantFrom("com", "example", "io", "ly", "xn--p1ai", "рф"),
    fc.constantFrom("", "/prize", "/a?b=1", ":8080/x"),
  )
  .map(([scheme, labels, dot, tld, path]) => `${scheme}${labels.join(dot)}${dot}${tld}${path}`);
/** A league name with addresses hidden in ordinary words. */
const leagueText = fc
  .array(fc.oneof(address, fc.string({ maxLength: 12 }), fc.constantFrom(" ", ". ", ": ")), {
    maxLength: 6,
  })
  .map((parts) => parts.join(""));

describe("defuseLinks", () => {
  it("leaves nothing a linkifier takes for an address", () => {
    fc.assert(
      fc.property(leagueText, (s) => {
        expect(looksLinkable(defuseLinks(s))).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it("only adds brackets: taking them away gives the player's text back", () => {
    fc.assert(
      fc.property(
        leagueText.filter((s) => !s.includes("[")),
        (s) => {
          const undone = defuseLinks(s).replace(/\[([.\u3002\uFF0E\uFF61\u2024:])\]/gu, "$1");
          expect(undone).toBe(s);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("is idempotent", () => {
    fc.assert(
      fc.property(fc.oneof(leagueText, fc.string()), (s) => {
        expect(defuseLinks(defuseLinks(s))).toBe(defuseLinks(s));
      }),
      { numRuns: 1000 },
    );
  });

  it("changes no text without an address in it", () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        fc.pre(!looksLinkable(s));
        expect(defuseLinks(s)).toBe(s);
      }),
      { numRuns: 1000 },
    );
  });

  it("defuses the probe's league name and keeps plain names", () => {
    expect(defuseLinks("WIN 500 EUR now: claim at evil.example/prize")).toBe(
      "WIN 500 EUR now: claim at evil[.]example/prize",
    );
    expect(defuseLinks("see https://www.evil-prize.com")).toBe(
      "see https[:]//www[.]evil-prize[.]com",
    );
    expect(defuseLinks("Mont-Sainte-Anne crew v1.2. Go!")).toBe("Mont-Sainte-Anne crew v1.2. Go!");
    expect(defuseLinks("Les Gets 3.5 Club")).toBe("Les Gets 3.5 Club");
  });
});

describe("maskEmail", () => {
  const local = fc.string({ unit: fc.constantFrom(..."abcdefxyz0123._+-é"), minLength: 1 });
  const label = fc.string({ unit: fc.constantFrom(..."abcdefxyz0123-"), minLength: 1 });

  it("shows only the first character of the name and of the domain, and the top-level domain", () => {
    fc.assert(
      fc.property(local, local, label, label, label, (l1, l2, d1, d2, tld) => {
        const a = maskEmail(`${l1}@${d1}.${tld}`);
        // Another address with the same first characters and top-level domain looks the same.
        const b = maskEmail(`${Array.from(l1)[0]}${l2}@${Array.from(d1)[0]}${d2}.${tld}`);
        expect(a).toBe(b);
        expect(a).toBe(`${Array.from(l1)[0]}***@${Array.from(d1)[0]}***.${tld}`);
      }),
      { numRuns: 1000 },
    );
  });

  it("never gives away a name or domain of two characters or more", () => {
    fc.assert(
      fc.property(local, label, (l, d) => {
        fc.pre(Array.from(l).length >= 2 && Array.from(d).length >= 2);
        const masked = maskEmail(`${l}@${d}.com`);
        const [shownLocal, shownDomain] = masked.split("@");
        expect(shownLocal).toBe(`${Array.from(l)[0]}***`);
        expect(shownDomain).toBe(`${Array.from(d)[0]}***.com`);
      }),
      { numRuns: 500 },
    );
  });

  it("masks the usual and the odd", () => {
    expect(maskEmail("bob@example.com")).toBe("b***@e***.com");
    expect(maskEmail("x@localhost")).toBe("x***@l***");
    expect(maskEmail("nobody")).toBe("***");
  });
});

describe("mailboxKey", () => {
  it("puts every +tag of an address in one mailbox", () => {
    expect(mailboxKey("Victim+1@Example.com")).toBe("victim@example.com");
    expect(mailboxKey("victim+spam+2@example.com")).toBe("victim@example.com");
    expect(mailboxKey("victim@example.com")).toBe("victim@example.com");
    // A local part that is only a tag stays as written.
    expect(mailboxKey("+x@example.com")).toBe("+x@example.com");
  });

  it("is the same for any tag, and never the same for two mailboxes", () => {
    const local = fc.stringMatching(/^[a-z0-9._-]{1,12}$/);
    fc.assert(
      fc.property(local, local, fc.stringMatching(/^[a-z0-9]{0,8}$/), (a, b, tag) => {
        const at = "@example.com";
        expect(mailboxKey(`${a}+${tag}${at}`)).toBe(mailboxKey(`${a}${at}`));
        if (a !== b) expect(mailboxKey(`${a}${at}`)).not.toBe(mailboxKey(`${b}${at}`));
      }),
      { numRuns: 300 },
    );
  });
});
