import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normalizeOrigin, parseOrigin } from "./origins.js";

describe("parseOrigin", () => {
  it("keeps exact web origins", () => {
    expect(parseOrigin("https://News.Example/")).toBe("https://news.example");
    expect(parseOrigin(" http://localhost:8080 ")).toBe("http://localhost:8080");
    expect(parseOrigin("https://a.example:443")).toBe("https://a.example");
  });

  it("refuses anything that is not an origin", () => {
    for (const bad of [
      "",
      "news.example",
      "ftp://news.example",
      "https://news.example/embed",
      "https://news.example/?x=1",
      "https://user:pw@news.example",
      "javascript:alert(1)",
    ]) {
      expect(parseOrigin(bad)).toBeNull();
    }
  });
});

describe("normalizeOrigin", () => {
  it("normalises origins", () => {
    expect(normalizeOrigin("https://A.example:443/path?q")).toBe("https://a.example");
    expect(normalizeOrigin("http://a.example:8080")).toBe("http://a.example:8080");
    expect(normalizeOrigin("javascript:alert(1)")).toBeNull();
    expect(normalizeOrigin("null")).toBeNull();
    expect(normalizeOrigin("")).toBeNull();
  });
});

describe("the two readings agree", () => {
  it("an origin parseOrigin accepts is its own normal form under both", () => {
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), (url) => {
        const strict = parseOrigin(url);
        const lenient = normalizeOrigin(url);
        // Whatever the strict reading accepts, the lenient one reads the same way...
        if (strict !== null) expect(lenient).toBe(strict);
        // ...and an origin, once normalised, reads back unchanged under both.
        if (lenient !== null) {
          expect(normalizeOrigin(lenient)).toBe(lenient);
          expect(parseOrigin(lenient)).toBe(lenient);
        }
      }),
      { numRuns: 300 },
    );
  });
});
