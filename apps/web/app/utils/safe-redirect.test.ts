import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { safeRedirect } from "./safe-redirect";

const FALLBACK = "<fallback>";
/** Pages a browser could be on when it follows the redirect. */
const PAGES = ["https://play.example.org/leagues?x=1", "http://localhost:3000/a/b/c/"];

/** Text built from the pieces open redirects are made of, so the search finds them quickly. */
const tricky = fc
  .array(
    fc.constantFrom(
      "/",
      "//",
      "\\",
      ".",
      "..",
      "%2e",
      "%2E%2e",
      "%2f",
      "%5c",
      "\t",
      "\n",
      "\r",
      " ",
      "\u0000",
      "evil.example",
      "https:",
      "javascript:",
      ":",
      "@",
      "?",
      "#",
      "x",
      "é",
      "€",
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(""));

describe("safeRedirect", () => {
  it("keeps paths of this site and refuses everything else", () => {
    expect(safeRedirect("/game/5")).toBe("/game/5");
    expect(safeRedirect("/view-racers?category=pro-women#top")).toBe(
      "/view-racers?category=pro-women#top",
    );
    expect(safeRedirect(null, "/homepage")).toBe("/homepage");
    expect(safeRedirect("", "/homepage")).toBe("/homepage");
    for (const off of [
      "//evil.example",
      "https://evil.example",
      "javascript:alert(1)",
      "game/5",
      // Browsers strip tabs and newlines and read "\" as "/": all of these lead off-site.
      "/\t/evil.example",
      "/\n/evil.example",
      "/\\evil.example",
      "/x\\..\\/evil",
    ]) {
      expect(safeRedirect(off), off).toBe("/");
    }
  });

  it("judges the normalised location: dot segments cannot make a path into another site", () => {
    for (const off of ["/.//evil.example", "/x/..//evil.example", "/%2e%2e//evil.example"]) {
      expect(safeRedirect(off, FALLBACK), off).toBe(FALLBACK);
    }
    // What comes back is the normalised location, ready for a Location header.
    expect(safeRedirect("/a/./b/../c?q=1")).toBe("/a/c?q=1");
    expect(safeRedirect("/league/€")).toBe("/league/%E2%82%AC");
  });

  it("property: anything it lets through stays on this site from any page, and is final", () => {
    fc.assert(
      fc.property(fc.oneof(tricky, fc.string({ maxLength: 30 })), (text) => {
        const to = safeRedirect(text, FALLBACK);
        if (to === FALLBACK) return;
        expect(to.startsWith("/") && !to.startsWith("//")).toBe(true);
        for (const page of PAGES) {
          const followed = new URL(to, page);
          expect(followed.origin).toBe(new URL(page).origin);
          // Normalising again (adding a notice to it, a browser reading it) changes nothing.
          expect(`${followed.pathname}${followed.search}${followed.hash}`).toBe(to);
        }
        expect(safeRedirect(to, FALLBACK)).toBe(to);
      }),
      { numRuns: 2000 },
    );
  });

  it("property: a plain path of this site comes back unchanged", () => {
    const segment = fc.stringMatching(/^[a-z0-9-]{1,8}$/);
    fc.assert(
      fc.property(
        fc.array(segment, { maxLength: 4 }),
        fc.option(fc.stringMatching(/^[a-z]{1,5}=[a-z0-9]{0,5}$/), { nil: undefined }),
        (segments, query) => {
          const path = `/${segments.join("/")}${query ? `?${query}` : ""}`;
          expect(safeRedirect(path, FALLBACK)).toBe(path);
        },
      ),
      { numRuns: 500 },
    );
  });
});
