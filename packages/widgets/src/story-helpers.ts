/** Helpers shared by the stories (not part of the published entry points). */
import { expect } from "storybook/test";

/** The widget's own root element inside the story canvas. */
export function widgetRoot(canvasElement: HTMLElement, className: string): HTMLElement {
  const el = canvasElement.querySelector<HTMLElement>(`.gf-root.${className}`);
  if (!el) throw new Error(`.gf-root.${className} not found`);
  return el;
}

/** The dark theme's background and text colours are in effect on `el`. */
export async function expectDarkTheme(el: HTMLElement): Promise<void> {
  const style = getComputedStyle(el);
  await expect(style.backgroundColor).toBe("rgb(18, 20, 23)");
  await expect(style.color).toBe("rgb(236, 238, 241)");
}

/** The widget fits its (narrow) container: nothing sticks out sideways. */
export async function expectNoHorizontalOverflow(el: HTMLElement): Promise<void> {
  await expect(el.scrollWidth).toBeLessThanOrEqual(el.clientWidth + 1);
}

const svg = (body: string) =>
  `data:image/svg+xml;charset=utf-8,${encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 320 180">${body}</svg>`,
  )}`;

/** Inline cover and logo images so the stories need no server. */
export const demoCover = svg(
  '<defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#7cb7e8"/><stop offset="1" stop-color="#f4d9b0"/></linearGradient></defs><rect width="320" height="180" fill="url(#s)"/><path d="M0 180 90 60l50 60 40-40 140 100z" fill="#3d5a40"/><path d="M70 84 90 60l22 26z" fill="#fff"/>',
);
export const demoLogo = svg(
  '<rect x="10" y="50" width="300" height="80" rx="14" fill="#b83a06"/><text x="160" y="105" font-family="sans-serif" font-size="40" font-weight="700" fill="#fff" text-anchor="middle">PRO DH</text>',
);
