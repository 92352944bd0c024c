/**
 * What every widget module shares (one chunk, loaded once per page): Preact (as `react`, see
 * `react-shim.ts`), the API client, and the stylesheet plumbing for shadow roots. The loader
 * (`loader.ts`) imports a widget's module when its element first appears, then calls `mount`
 * with the first API answers the hello brought (docs/decisions/0182).
 */
import { createGameClient, type GameClient } from "@game/widgets/client";
import { GravityProvider } from "@game/widgets/hooks";
import { type ComponentType, createElement } from "react";
import { render, unmountComponentAtNode } from "react-dom";

/** Attribute values by name; null when the attribute is absent. */
export type Attributes = Partial<Record<string, string | null>>;

/**
 * First API answers by the path and query asked (`/api/v1/...`): `[status, body, uses]`, uses
 * being how many of the hello's widgets ask for it.
 */
export type FirstData = Record<string, [number, unknown, number]>;

export interface EmbedContext {
  client: GameClient;
  /** The game's origin, where the script came from. */
  base: string;
}

/**
 * The first API answers the hellos brought that no widget has asked for yet, by path (one game
 * per page: the paths carry no origin).
 */
const first: FirstData = {};
/**
 * How long an answer waits for its widget (ms). One nobody asked for by then (the widget left the
 * page, or its attributes changed first) is dropped: a later request must get fresh data.
 */
export const FIRST_DATA_MS = 10_000;

export interface WidgetProps {
  attrs: Attributes;
  ctx: EmbedContext;
  /** The custom element, for dispatching events on it. */
  host: HTMLElement;
}

const contexts = new Map<string, EmbedContext>();

/**
 * Adds a hello's first answers (the loader hands each hello's to one mount only: an answer a
 * widget has used must not come back). Those still unused after `FIRST_DATA_MS` leave, or a newer
 * hello's of the same path: its widget then asks the game, which is never wrong.
 */
export function addFirstData(data: FirstData | undefined): void {
  Object.assign(first, data);
  setTimeout(() => {
    for (const path in data) delete first[path];
  }, FIRST_DATA_MS);
}

/**
 * The API client's fetch for the game at `base`: a request a hello already answered is answered
 * from it, once per widget that planned it; anything else (a reload, a retry, race-day updates,
 * the reader's clicks) asks the game. The client asks with a string.
 */
export function fetchFirst(base: string): typeof fetch {
  return async (url, init) => {
    const path = (url as string).slice(base.length);
    const answer = first[path];
    if (answer && !(--answer[2] > 0)) delete first[path];
    return answer
      ? new Response(JSON.stringify(answer[1]), { status: answer[0] })
      : fetch(url, init);
  };
}

function contextFor(base: string): EmbedContext {
  let ctx = contexts.get(base);
  if (!ctx) {
    ctx = { base, client: createGameClient({ baseUrl: base, fetch: fetchFirst(base) }) };
    contexts.set(base, ctx);
  }
  return ctx;
}

const sheets = new Map<string, CSSStyleSheet | null>();

/**
 * The widget's stylesheet in its shadow root: one parsed sheet per widget kind shared by every
 * element of that kind on the page (`adoptedStyleSheets`), else a `<style>`.
 */
export function addStyles(root: ShadowRoot, css: string): void {
  if (!sheets.has(css)) {
    let sheet: CSSStyleSheet | null = null;
    try {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
    } catch {
      sheet = null;
    }
    sheets.set(css, sheet);
  }
  const sheet = sheets.get(css);
  if (sheet && "adoptedStyleSheets" in root) {
    root.adoptedStyleSheets = [sheet];
    return;
  }
  const style = document.createElement("style");
  style.textContent = css;
  root.prepend(style);
}

/** Renders (or re-renders with new attributes) `component` into `node`, inside the provider. */
export function mount(
  component: ComponentType<WidgetProps>,
  node: HTMLElement,
  attrs: Attributes,
  base: string,
  host: HTMLElement,
  data?: FirstData,
): void {
  const ctx = contextFor(base);
  addFirstData(data);
  // The hooks (and portrait URLs) take the client from the provider.
  render(
    createElement(
      GravityProvider,
      { client: ctx.client },
      createElement(component, { attrs, ctx, host }),
    ),
    node,
  );
}

export function unmount(node: HTMLElement): void {
  unmountComponentAtNode(node);
}
