import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { EmbedSnippet, embedSnippet } from "./embed-snippet";

const gameUrl = "https://gravityfantasy.example/";

describe("embedSnippet", () => {
  it("gives the script line and the element with its attributes", () => {
    expect(embedSnippet({ gameUrl, widget: "racer-table", event: 5, category: "Pro Women" })).toBe(
      [
        '<script src="https://gravityfantasy.example/embed/v1/widgets.js" async></script>',
        '<gf-racer-table event="5" category="pro-women"></gf-racer-table>',
      ].join("\n"),
    );
    expect(
      embedSnippet({ gameUrl, widget: "player-rankings", event: null, theme: "dark" }),
    ).toContain('<gf-player-rankings theme="dark"></gf-player-rankings>');
    expect(embedSnippet({ gameUrl, widget: "league-rankings", event: 5 })).toContain(
      "<gf-league-rankings></gf-league-rankings>",
    );
    expect(
      embedSnippet({ gameUrl, widget: "team-builder", event: 5, partnerKey: "pk_abc" }),
    ).toContain('<gf-team-builder event="5" partner="pk_abc"></gf-team-builder>');
  });

  it("escapes what an admin types and marks what is missing", () => {
    expect(
      embedSnippet({ gameUrl, widget: "team-grid", username: 'a"><script>x', event: 7 }),
    ).toContain('<gf-team-grid username="a&quot;>&lt;script>x" event="7"></gf-team-grid>');
    expect(embedSnippet({ gameUrl, widget: "team-grid" })).toContain('username="USERNAME"');
    expect(embedSnippet({ gameUrl, widget: "team-builder" })).toContain(
      'partner="YOUR_PUBLISHABLE_KEY"',
    );
  });
});

describe("<EmbedSnippet>", () => {
  it("starts with the open event's racer table and labels every field", () => {
    const html = renderToStaticMarkup(
      createElement(EmbedSnippet, {
        gameUrl: "https://gravityfantasy.example",
        partners: [{ name: "Trail Talk", publishableKey: "pk_trail" }],
        events: [
          { id: 4, name: "Finals", status: "archived" },
          { id: 5, name: "Round 1", status: "open" },
        ],
      }),
    );
    expect(html).toContain(
      "&lt;gf-racer-table event=&quot;5&quot; category=&quot;pro-men&quot;&gt;&lt;/gf-racer-table&gt;",
    );
    for (const label of ["Widget", "Event", "First tab", "Theme"]) {
      expect(html).toMatch(new RegExp(`<label for="[^"]+">${label}</label>`));
    }
    expect(html).toContain("Copy code");
  });
});
