import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { SaveOutcome } from "./save-outcome";

describe("a save's outcome", () => {
  it("shows nothing before a save", () => {
    expect(renderToStaticMarkup(<SaveOutcome outcome={null} block="alert" />)).toBe("");
  });

  it("shows a success in the builder's own classes, without an empty list", () => {
    const html = renderToStaticMarkup(
      <SaveOutcome
        outcome={{ ok: true, message: "Team saved successfully!", reasons: [] }}
        block="embed-alert"
      />,
    );
    expect(html).toBe(
      '<div class="embed-alert embed-alert--ok"><p class="embed-alert__message">Team saved successfully!</p></div>',
    );
  });

  it("lists the rules a refused save broke", () => {
    const html = renderToStaticMarkup(
      <SaveOutcome
        outcome={{
          ok: false,
          message: "Failed to save team.",
          reasons: ["Over budget", "Needs a junior"],
        }}
        block="alert"
      />,
    );
    expect(html).toContain('class="alert alert--error"');
    expect(html).toContain(
      '<ul class="alert__reasons"><li>Over budget</li><li>Needs a junior</li></ul>',
    );
  });
});
