import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CaptainToggle, TeamPoints } from "./team-marks";

/** What a reader (or a screen reader) gets: the text, without tags. */
const text = (html: string) => html.replace(/<[^>]+>/g, "");

describe("a racer's points for the team, explained (decisions 0168, 0169)", () => {
  it("shows a starter's points as they are", () => {
    expect(text(renderToStaticMarkup(<TeamPoints points={50} unit=" pts" />))).toBe("50 pts");
  });

  it("doubles a captain's, and says why", () => {
    expect(text(renderToStaticMarkup(<TeamPoints points={100} captain unit=" pts" />))).toBe(
      "CCaptain 200 pts (100 × 2, captain)",
    );
  });

  it("counts a bench rider only when they came on, and names the starter they replaced", () => {
    expect(
      text(renderToStaticMarkup(<TeamPoints points={65} bench autoSub="in" unit=" pts" />)),
    ).toBe(" 65 pts (bench rider, came on: auto-sub)");
    expect(text(renderToStaticMarkup(<TeamPoints points={65} bench unit=" pts" />))).toBe(
      " 0 pts (bench rider, not needed: 65 not counted)",
    );
    expect(text(renderToStaticMarkup(<TeamPoints points={0} autoSub="out" unit=" pts" />))).toBe(
      " 0 pts (did not start: replaced by the bench rider)",
    );
  });
});

describe("the captain's toggle", () => {
  it("is a button that says whose armband it is and whether it is on", () => {
    const html = renderToStaticMarkup(
      <CaptainToggle
        racer={{ id: 7, firstName: "Vali", lastName: "Höll" }}
        on
        name="makeCaptain"
        onToggle={() => {}}
      />,
    );
    expect(html).toContain('type="submit"');
    expect(html).toContain('name="makeCaptain"');
    expect(html).toContain('value="7"');
    expect(html).toContain('aria-pressed="true"');
    expect(text(html)).toBe("CCaptain: Vali Höll");
  });
});
