/**
 * A custom element that renders a component into an open shadow root holding the widget styles:
 * the partner's CSS cannot reach in, ours cannot leak out, and the `--gf-*` variables still
 * inherit through (custom properties cross the shadow boundary).
 */
import type { GameClient } from "@game/widgets/client";
import { type ComponentType, createElement } from "react";
import { render, unmountComponentAtNode } from "react-dom";

/** The widget CSS prepared for shadow roots at build time (see build.mjs). */
declare const __GF_CSS__: string;

/** Attribute values by name; null when the attribute is absent. */
export type Attributes = Partial<Record<string, string | null>>;

export interface EmbedContext {
  client: GameClient;
  /** The game's origin, where the script came from. */
  base: string;
}

export interface WidgetProps {
  attrs: Attributes;
  ctx: EmbedContext;
  /** The custom element, for dispatching events on it. */
  host: HTMLElement;
}

let shared: CSSStyleSheet | null | undefined;

/** One parsed stylesheet shared by every widget on the page, else a `<style>` per widget. */
function addStyles(root: ShadowRoot): void {
  if (shared === undefined) {
    try {
      shared = new CSSStyleSheet();
      shared.replaceSync(__GF_CSS__);
    } catch {
      shared = null;
    }
  }
  if (shared && "adoptedStyleSheets" in root) {
    root.adoptedStyleSheets = [shared];
    return;
  }
  const style = document.createElement("style");
  style.textContent = __GF_CSS__;
  root.append(style);
}

export function defineWidget(
  tag: string,
  attributes: readonly string[],
  component: ComponentType<WidgetProps>,
  ctx: EmbedContext,
): void {
  // The script may be included twice on a page: the first definition wins.
  if (customElements.get(tag)) return;
  customElements.define(
    tag,
    class extends HTMLElement {
      static observedAttributes = [...attributes];
      mount: HTMLElement | null = null;

      connectedCallback() {
        if (!this.mount) {
          const root = this.shadowRoot ?? this.attachShadow({ mode: "open" });
          addStyles(root);
          this.mount = document.createElement("div");
          this.mount.className = "gf-embed";
          root.append(this.mount);
        }
        this.update();
      }

      attributeChangedCallback() {
        if (this.mount && this.isConnected) this.update();
      }

      disconnectedCallback() {
        if (this.mount) unmountComponentAtNode(this.mount);
      }

      update() {
        const attrs: Attributes = {};
        for (const name of attributes) attrs[name] = this.getAttribute(name);
        render(createElement(component, { attrs, ctx, host: this }), this.mount!);
      }
    },
  );
}
