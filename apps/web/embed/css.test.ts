import fc from "fast-check";
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

  it("leaves the private theme toggles alone (decision 0123), their reads compacted", () => {
    const out = prepareWidgetCss(
      ":where(.gf-root) { --gf-is-dark: initial; --gf-is-light: ; --gf-color-bg: var(--gf-is-dark, #fff) var(--gf-is-light, #000); }\n" +
        ':where(.gf-root[data-theme="dark"]) { --gf-is-dark: ; --gf-is-light: initial; }',
    );
    expect(out).toContain("--gf-is-dark: initial; --gf-is-light: ;");
    expect(out).toContain("--gf-is-dark: ; --gf-is-light: initial;");
    expect(out).toContain("--gf-default-color-bg: var(--gf-is-dark,#fff) var(--gf-is-light,#000);");
    expect(out).not.toContain("--gf-default-is-");
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

describe("keepUsedRules", () => {
  const css = [
    ".gf-root .gf-tab { color: red; }",
    ".gf-root .gf-slot, .gf-root .gf-tab:hover { color: blue; }",
    ".gf-root .gf-move--up { color: green; }",
    "@media (max-width: 30rem) { .gf-root .gf-tab { padding: 0; } }",
    "@media (max-width: 40rem) { .gf-root .gf-slot { padding: 0; } }",
    ".gf-root :where(a, button) { cursor: pointer; }",
    "table { border: 0; }",
  ].join("\n");

  it("keeps only selectors whose gf- classes the code names (or builds from a prefix)", async () => {
    const { keepUsedRules } = await import("./css.mjs");
    const out = keepUsedRules(
      css,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: minified code holding a template
      'cx("gf-root gf-slot"), `gf-move--${kind}`, r("a"), r("button")',
    );
    expect(out).not.toContain(".gf-tab");
    expect(out).toContain(".gf-root .gf-slot {");
    expect(out).toContain(".gf-move--up");
    expect(out).not.toContain("30rem");
    expect(out).toContain("@media (max-width: 40rem)");
    expect(out).toContain(":where(a, button)");
    expect(out).toContain("table { border: 0; }");
  });

  it("drops the tokens nothing left reads, in every theme, keeping those read through others", async () => {
    const { keepUsedRules } = await import("./css.mjs");
    const themed = [
      ":where(.gf-root) { --gf-color-tab: red; --gf-color-slot: blue; --gf-base: 4px; --gf-gap: var(--gf-base); --gf-inline: 1px; }",
      "@media (prefers-color-scheme: dark) { :where(.gf-root) { --gf-color-tab: pink; --gf-color-slot: navy; } }",
      ".gf-root .gf-tab { color: var(--gf-color-tab); margin: var(--gf-gap); }",
      ".gf-root .gf-slot { color: var(--gf-color-slot); }",
    ].join("\n");
    const out = keepUsedRules(themed, 'cx("gf-root gf-tab"), style: "--gf-inline"');
    expect(out).not.toContain("--gf-color-slot");
    expect(out).toContain("--gf-color-tab: red");
    expect(out).toContain("--gf-color-tab: pink");
    // Read through --gf-gap, and named by the code.
    expect(out).toContain("--gf-base: 4px");
    expect(out).toContain("--gf-inline: 1px");
  });

  it("resets only the elements the widget's code can create", async () => {
    const { keepUsedRules } = await import("./css.mjs");
    const css = [
      ".gf-root :where(h1, h2, p, ul, table) { margin: 0; }",
      ".gf-root :where(ul, ol) { list-style: none; }",
      ".gf-root :where(a, button, [tabindex]):focus-visible { outline: 0; }",
    ].join("\n");
    const out = keepUsedRules(css, 'r("table", {className: "gf-root"}), r("p")');
    expect(out).toContain(".gf-root :where(p,table) { margin: 0; }");
    expect(out).not.toContain("list-style");
    // Lists with anything but tag names stay as they are.
    expect(out).toContain(":where(a, button, [tabindex])");
    // A heading built from its level (`h${level}`) keeps every heading.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: minified code holding a template
    expect(keepUsedRules(css, '"gf-root", `h${n}`')).toContain(":where(h1,h2)");
  });

  it("drops keyframes no kept rule animates", async () => {
    const { keepUsedRules } = await import("./css.mjs");
    const css = [
      ".gf-root .gf-spinner { animation: gf-spin 1s linear infinite; }",
      ".gf-root .gf-skeleton { animation: gf-pulse 1s infinite; }",
      "@keyframes gf-spin { to { transform: rotate(360deg); } }",
      "@keyframes gf-pulse { 50% { opacity: 0.5; } }",
    ].join("\n");
    const out = keepUsedRules(css, 'cx("gf-root gf-spinner")');
    expect(out).toContain("@keyframes gf-spin");
    expect(out).not.toContain("gf-pulse");
  });

  it("keeps everything when the code names every class", async () => {
    const { keepUsedRules } = await import("./css.mjs");
    expect(keepUsedRules(css, 'gf-root gf-tab gf-slot gf-move--up "a" "button"')).toBe(css);
  });
});

describe("keepUsedRules (property)", () => {
  const classes = ["gf-root", "gf-tab", "gf-slot", "gf-page", "gf-move--up", "gf-move--down"];
  const selector = fc
    .uniqueArray(fc.constantFrom(...classes), { minLength: 0, maxLength: 3 })
    .map((cs) => (cs.length ? cs.map((c) => `.${c}`).join(" ") : "table"));
  const rule = fc
    .uniqueArray(selector, { minLength: 1, maxLength: 3 })
    .map((sels) => `${sels.join(", ")} { color: red; }`);

  it("keeps exactly the selectors whose gf- classes the code names or builds", async () => {
    const { keepUsedRules } = await import("./css.mjs");
    const postcss = (await import("postcss")).default;
    fc.assert(
      fc.property(
        fc.array(rule, { maxLength: 8 }),
        fc.uniqueArray(fc.constantFrom(...classes)),
        (rules, used) => {
          const code = used.join(" ");
          const out = postcss.parse(keepUsedRules(rules.join("\n"), code));
          const kept: string[] = [];
          out.walkRules((r) => {
            kept.push(...r.selectors);
          });
          const expected = rules
            .flatMap((r) => postcss.parse(r).first as unknown as { selectors: string[] })
            .flatMap((r) => r.selectors)
            .filter((sel) =>
              (sel.match(/\.gf-[\w-]+/g) ?? []).every((c) => {
                const name = c.slice(1);
                // A modifier is kept when the code builds it from its prefix (`gf-move--${x}`).
                const at = name.indexOf("--");
                return used.includes(name) || (at > 0 && code.includes(name.slice(0, at + 2)));
              }),
            );
          expect(kept).toEqual(expected);
        },
      ),
      { numRuns: 500 },
    );
  });
});
