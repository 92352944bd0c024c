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
 *    value a partner sets on the page, which only reaches the root by inheritance. The private
 *    theme toggles (`--gf-is-dark`, `--gf-is-light`, decision 0123) stay as they are: a partner
 *    never sets them, and the widget's own theme must not read a page's.
 * 2. `rem` becomes `px`: a partner page with `html { font-size: 10px }` (a common reset) would
 *    otherwise shrink every widget.
 * 3. The host and wrapper rules come first. `.gf-embed` resets every inherited property
 *    (`all: initial` leaves custom properties alone), so the page's fonts, colours, alignment or
 *    `* { all: unset }` do not leak in either. Table scrollers are positioned so the visually
 *    hidden (absolute) labels inside them cannot widen a narrow page.
 */
export function prepareWidgetCss(source) {
  let css = source.replace(/\/\*[\s\S]*?\*\//g, "");
  css = css.replace(/(^|[{;\s])--gf-(?!is-)([\w-]+)(\s*):/g, "$1--gf-default-$2$3:");
  css = css.replace(/var\(\s*--gf-(?!default-|is-)([\w-]+)\s*([,)])/g, (_m, name, end) =>
    end === ")"
      ? `var(--gf-${name}, var(--gf-default-${name}))`
      : `var(--gf-${name}, var(--gf-default-${name},`,
  );
  // A fallback in the source (`var(--gf-x, 4px)`) gained an open `var(` above: close it.
  css = closeFallbacks(css);
  // esbuild keeps custom property values as written, and each colour reads both toggles.
  css = css.replace(/var\((--gf-is-(?:dark|light)),\s+/g, "var($1,");
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
  // Preact creates every element from its tag name as a string ("h2"), or a built heading.
  const tagUsed = (tag) =>
    code.includes(`"${tag}"`) || (/^h[1-6]$/.test(tag) && code.includes("h${"));
  const root = postcss.parse(css);
  root.walkRules((rule) => {
    const kept = rule.selectors
      .map((sel) =>
        // `:where(h1, p, ul, table)` resets only the elements the widget can make.
        sel.replace(/:where\(([a-z\d\s,]+)\)/g, (whole, list) => {
          const tags = list.split(",").map((t) => t.trim());
          const left = tags.filter(tagUsed);
          if (left.length === tags.length) return whole;
          return left.length === 0 ? ":where(gf-none)" : `:where(${left.join(",")})`;
        }),
      )
      .filter(
        (sel) =>
          !sel.includes(":where(gf-none)") &&
          (sel.match(/\.gf-[\w-]+/g) ?? []).every((c) => present(c.slice(1))),
      );
    if (kept.length === 0) rule.remove();
    else if (kept.join() !== rule.selectors.join()) rule.selectors = kept;
  });
  dropUnusedTokens(root, code);
  // Animations no kept rule runs (the rankings' skeleton pulse in the racer table).
  const animated = [];
  root.walkDecls(/^animation/, (decl) => {
    animated.push(decl.value);
  });
  root.walkAtRules("keyframes", (at) => {
    if (!animated.some((v) => v.includes(at.params))) at.remove();
  });
  root.walkAtRules((at) => {
    if (at.nodes && at.nodes.length === 0) at.remove();
  });
  return root.toString();
}

/**
 * Drops the declarations of `--gf-*` tokens that nothing left reads: no kept rule's value, no
 * token that is itself read, and not the widget's code. Every colour token holds its light and
 * dark value, so a widget that never shows, say, a "me" row or an open-event badge would carry
 * both for nothing. A partner setting such a token saw no effect before either.
 * @param {import("postcss").Root} root
 * @param {string} code
 */
function dropUnusedTokens(root, code) {
  const reads = (value) => [...value.matchAll(/var\(\s*--gf-([\w-]+)/g)].map((m) => m[1]);
  /** @type {Map<string, string[]>} what each token's declarations read */
  const tokenReads = new Map();
  const used = new Set([...code.matchAll(/--gf-([\w-]+)/g)].map((m) => m[1]));
  root.walkDecls((decl) => {
    const token = /^--gf-([\w-]+)$/.exec(decl.prop)?.[1];
    if (token) tokenReads.set(token, [...(tokenReads.get(token) ?? []), ...reads(decl.value)]);
    else for (const name of reads(decl.value)) used.add(name);
  });
  // Tokens read by used tokens are used too (`--gf-slot-portrait-size` feeding another).
  const queue = [...used];
  while (queue.length > 0) {
    for (const name of tokenReads.get(queue.pop()) ?? []) {
      if (!used.has(name)) {
        used.add(name);
        queue.push(name);
      }
    }
  }
  root.walkDecls(/^--gf-/, (decl) => {
    if (!used.has(decl.prop.slice("--gf-".length))) decl.remove();
  });
  root.walkRules((rule) => {
    if (rule.nodes.length === 0) rule.remove();
  });
}
