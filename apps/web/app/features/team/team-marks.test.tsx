import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CaptainToggle } from "./team-marks";
import { TeamPoints } from "./team-points";
import { TransferLine } from "./transfer-line";

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

describe("the transfer line (decision 0170)", () => {
  const account = {
    rules: { free: 1, bank: 3, cost: 10 },
    kept: [1, 2, 3, 4, 5, 6],
    leftBefore: 0,
    wildcard: { offered: true, eventId: null, eventName: null },
  };
  const line = (round: Parameters<typeof TransferLine>[0]["round"], wildcard = false) =>
    text(
      renderToStaticMarkup(
        <TransferLine
          account={account}
          round={round}
          eventId={6}
          wildcard={wildcard}
          onWildcard={() => {}}
        />,
      ),
    );

  it("says what the changes cost before the save", () => {
    expect(line({ available: 1, changes: 3, extra: 2, cost: 20, left: 0 })).toContain(
      "Transfers: 3 of 1 free; 2 extra cost 20 points this round.",
    );
    expect(line({ available: 1, changes: 1, extra: 0, cost: 0, left: 0 })).toContain(
      "Transfers: 1 of 1 free.",
    );
    expect(line({ available: 1, changes: 4, extra: 0, cost: 0, left: 1 }, true)).toContain(
      "Wildcard: your 4 changes are free this round.",
    );
    expect(line({ available: null, changes: 6, extra: 0, cost: 0, left: 0 })).toBe(
      "Your first round: your picks are free.",
    );
  });

  it("offers the wildcard box until it is played in an earlier round", () => {
    expect(line({ available: 1, changes: 0, extra: 0, cost: 0, left: 1 })).toContain(
      "Play my wildcard this round",
    );
    const played = renderToStaticMarkup(
      <TransferLine
        account={{ ...account, wildcard: { offered: true, eventId: 5, eventName: "Round 1" } }}
        round={{ available: 1, changes: 0, extra: 0, cost: 0, left: 1 }}
        eventId={6}
        wildcard={false}
      />,
    );
    expect(text(played)).toContain("Wildcard played in Round 1.");
    expect(played).not.toContain('type="checkbox"');
  });
});
