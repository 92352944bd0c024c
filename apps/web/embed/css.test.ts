import { describe, expect, it } from "vitest";
import { HOST_CSS, prepareWidgetCss, REM_PX } from "./css.mjs";

describe("prepareWidgetCss", () => {
  it("turns token declarations into defaults the page can override", () => {
    const out = prepareWidgetCss(
      ".gf-root { --gf-color-accent: #b83a06; --gf-space-1: 0.25rem; }\n" +
        ".gf-button { background: var(--gf-color-accent); padding: var(--gf-space-1) calc(2 * var(--gf-space-1)); }",
    );
    expect(out).toContain("--gf-default-color-accent: #b83a06;");
    expect(out).toContain("--gf-default-space-1: 4px;");
    expect(out).toContain("background: var(--gf-color-accent, var(--gf-default-color-accent));");
    expect(out).toContain("calc(2 * var(--gf-space-1, var(--gf-default-space-1)))");
    expect(out).not.toMatch(/[{;\s]--gf-(?!default-)[\w-]+\s*:/);
  });

  it("keeps fallbacks of the source and closes them", () => {
    const out = prepareWidgetCss(".a { margin: var(--gf-gap, calc(1px + 2px)) 0; }");
    expect(out).toContain("margin: var(--gf-gap, var(--gf-default-gap, calc(1px + 2px))) 0;");
  });

  it("converts rem to px and drops comments", () => {
    const out = prepareWidgetCss(
      "/* note: 1rem */ .a { font-size: 0.9375rem; margin: -1.5rem 2rem; }",
    );
    expect(out).toContain(`font-size: ${0.9375 * REM_PX}px;`);
    expect(out).toContain("margin: -24px 32px;");
    expect(out).not.toContain("note");
  });

  it("starts with the host and wrapper rules", () => {
    const out = prepareWidgetCss(".a{}");
    expect(out.startsWith(HOST_CSS.trim())).toBe(true);
    expect(HOST_CSS).toContain(".gf-embed { all: initial; display: block; }");
  });
});
