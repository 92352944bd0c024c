// Prepares the widget stylesheet for shadow roots on partner pages. Build-time only.
import postcss from "postcss";

/** Pixels per rem: the browser default, which partner pages often change on <html>. */
export const REM_PX = 16;

/** Styles of the custom element and of the wrapper around each widget. */
export const HOST_CSS = `
:host { display: block; }
:host([hidden]) { display: none; }
.gf-embed { all: initial; display: block; }
.gf-embed .gf-table-scroll { position: relative; }
`;

/**
 * 1. Every `--gf-*` token the widget CSS declares becomes a default (`--gf-default-*`) and every
 *    use reads the partner's value first: `var(--gf-x)` -> `var(--gf-x, var(--gf-default-x))`.
 *    Without this the declarations on `.gf-root` inside the shadow root would always beat the
 *    value a partner sets on the page, which only reaches the root by inheritance.
 * 2. `rem` becomes `px`: a partner page with `html { font-size: 10px }` (a common reset) would
 *    otherwise shrink every widget.
 * 3. The host and wrapper rules come first. `.gf-embed` resets every inherited property
 *    (`all: initial` leaves custom properties alone), so the page's fonts, colours, alignment or
 *    `* { all: unset }` do not leak in either. Table scrollers are positioned so the visually
 *    hidden (absolute) labels inside them cannot widen a narrow page.
 */
export function prepareWidgetCss(source) {
  let css = source.replace(/\/\*[\s\S]*?\*\//g, "");
  css = css.replace(/(^|[{;\s])--gf-([\w-]+)(\s*):/g, "$1--gf-default-$2$3:");
  css = css.replace(/var\(\s*--gf-(?!default-)([\w-]+)\s*([,)])/g, (_m, name, end) =>
    end === ")"
      ? `var(--gf-${name}, var(--gf-default-${name}))`
      : `var(--gf-${name}, var(--gf-default-${name},`,
  );
  // A fallback in the source (`var(--gf-x, 4px)`) gained an open `var(` above: close it.
  css = closeFallbacks(css);
  css = css.replace(/(-?\d*\.?\d+)rem\b/g, (_m, n) => `${round(Number(n) * REM_PX)}px`);
  return `${HOST_CSS.trim()}\n${css}`;
}

function round(n) {
  return Math.round(n * 1000) / 1000;
}

/** Adds a `)` after each fallback opened by `var(--gf-default-x,` (matching nested parens). */
function closeFallbacks(css) {
  const marker = /var\(--gf-default-[\w-]+,/g;
  let out = "";
  let last = 0;
  for (let m = marker.exec(css); m; m = marker.exec(css)) {
    let depth = 1;
    let i = m.index + m[0].length;
    for (; i < css.length && depth > 0; i++) {
      if (css[i] === "(") depth++;
      else if (css[i] === ")") depth--;
    }
    // `i` is just past the `)` closing `var(--gf-default-x, ...`; the outer var closes next.
    out += `${css.slice(last, i)})`;
    last = i;
    marker.lastIndex = i;
  }
  return out + css.slice(last);
}

/**
 * Drops the rules a widget cannot use: a selector naming a `gf-*` class that appears nowhere in
 * the widget's code (as a whole class, or as the prefix of a `gf-x--${modifier}` template) never
 * matches inside its shadow root. Selectors without a `gf-*` class are kept, as are at-rules
 * other than their emptied children. Saves each widget the CSS of the others.
 * @param {string} css
 * @param {string} code the JavaScript of the widget and everything it imports
 */
export function keepUsedRules(css, code) {
  const used = new Set(code.match(/gf-[\w-]+/g) ?? []);
  const present = (cls) => {
    if (used.has(cls)) return true;
    const at = cls.indexOf("--");
    return at > 0 && code.includes(cls.slice(0, at + 2));
  };
  const root = postcss.parse(css);
  root.walkRules((rule) => {
    const kept = rule.selectors.filter((sel) =>
      (sel.match(/\.gf-[\w-]+/g) ?? []).every((c) => present(c.slice(1))),
    );
    if (kept.length === 0) rule.remove();
    else if (kept.length < rule.selectors.length) rule.selectors = kept;
  });
  root.walkAtRules((at) => {
    if (at.nodes && at.nodes.length === 0) at.remove();
  });
  return root.toString();
}
