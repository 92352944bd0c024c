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

export interface WidgetProps {
  attrs: Attributes;
  ctx: EmbedContext;
  /** The custom element, for dispatching events on it. */
  host: HTMLElement;
}

const contexts = new Map<string, EmbedContext>();

function contextFor(base: string): EmbedContext {
  let ctx = contexts.get(base);
  if (!ctx) {
    // A request the hello already answered is answered from it, once per widget that asked: a
    // reload or a retry (live scores, the reader's click) asks the game again. The client asks
    // with a string.
    const fetchFirst = async (url: RequestInfo | URL, init?: RequestInit) => {
      const path = (url as string).slice(base.length);
      const answer = first[path];
      if (answer && !--answer[2]) delete first[path];
      return answer
        ? new Response(JSON.stringify(answer[1]), { status: answer[0] })
        : fetch(url, init);
    };
    ctx = { base, client: createGameClient({ baseUrl: base, fetch: fetchFirst }) };
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
  Object.assign(first, data);
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
