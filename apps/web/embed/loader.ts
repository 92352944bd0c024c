/**
 * `/embed/v1/widgets.js`: the script-tag embed for partner sites. One script, then any of
 *
 *   <gf-racer-table event="5" category="pro-women"></gf-racer-table>
 *   <gf-player-rankings event="5"></gf-player-rankings>
 *   <gf-league-rankings></gf-league-rankings>
 *   <gf-team-grid username="alice" event="5"></gf-team-grid>
 *   <gf-team-builder event="5" partner="pk_..."></gf-team-builder>
 *
 * This loader is tiny and has no framework: it defines the elements, asks the game whether this
 * page's origin may use them (`/embed/v1/hello`, which also counts the widgets for the partner's
 * stats and answers their first API requests), and imports a widget's module, with the shared
 * chunks it imports at the same time, only when its element appears on the page. A widget's data
 * thus comes with its code (docs/decisions/0090, 0175, 0182).
 */
import type { Attributes, FirstData, mount, unmount } from "./runtime";

/**
 * Element name -> its module's file, then the shared chunks that module imports, all next to this
 * script (filled in by build.mjs).
 */
declare const __GF_FILES__: Record<string, string[]>;

/** The hello's answer: whether the origin may use the widgets, and their first API answers. */
interface Hello {
  allowed?: boolean;
  data?: FirstData;
}

interface WidgetModule {
  component: Parameters<typeof mount>[0];
  css: string;
  mount: typeof mount;
  unmount: typeof unmount;
  addStyles: (root: ShadowRoot, css: string) => void;
}

/** The script's own URL (read while it runs): modules sit next to it, the API at its origin. */
function scriptUrl(): string {
  const current = document.currentScript as HTMLScriptElement | null;
  const src =
    current?.src ||
    document.querySelector<HTMLScriptElement>('script[src*="/embed/v1/widgets.js"]')?.src ||
    location.href;
  return new URL(src, location.href).href;
}

const script = scriptUrl();
const base = new URL(script).origin;

const modules = new Map<string, Promise<WidgetModule>>();
function load(tag: string): Promise<WidgetModule> {
  let module = modules.get(tag);
  if (!module) {
    // The module and its shared chunks at once: the browser would only find the chunks once the
    // module arrived, a round trip later. Variable specifiers: esbuild leaves them alone.
    module = Promise.all(
      __GF_FILES__[tag]!.map((file) => import(/* @vite-ignore */ new URL(file, script).href)),
    ).then(([widget]) => widget as WidgetModule);
    modules.set(tag, module);
  }
  return module;
}

/**
 * This page view, for the partner's stats: drawn once per page, so the game counts the page's
 * widgets once however many hellos it sends (docs/decisions/0154). Random, and nothing else: no
 * cookie, nothing stored, a new one on every page.
 */
const pageView = crypto.getRandomValues(new Uint32Array(4)).join("");
/** Widgets that have appeared on this page so far. */
let widgets = 0;

/** The hello waiting for the end of this task, and the widgets it names so far. */
let next: Promise<Hello> | undefined;
let named = "";
/** A hello said no: the origin may not use the widgets, whatever a later one answers. */
let refused = false;

/**
 * Whether this page's origin may use the widgets, with the first data of the widget `tag` with
 * `attrs`. Elements that appear in the same task share one hello (`n` = the page's widgets so
 * far, for the partner's stats). Unreachable game, old server or too many requests: assume yes,
 * with no data, and let each widget fetch its own and show its own error.
 */
function hello(tag: string, attrs: Attributes): Promise<Hello> {
  widgets += 1;
  // The address stays short (the game answers eight widgets a hello): a widget past it asks the
  // API itself.
  if (named.length < 4000) named += `&w=${encodeURIComponent(JSON.stringify([tag, attrs]))}`;
  next ??= new Promise<void>((resolve) => setTimeout(resolve, 0))
    .then(() => {
      const url = `${base}/embed/v1/hello?n=${widgets}&pv=${pageView}${named}`;
      next = undefined;
      named = "";
      return fetch(url, { credentials: "omit" });
    })
    .then((res) => res.json() as Promise<Hello>)
    .then(
      (body) => {
        if (body.allowed === false && !refused) {
          refused = true;
          console.warn(
            `Gravity Fantasy: origin not allowed: ask the game's admin to add ${location.origin} to your partner origins. The widgets stay hidden.`,
          );
        }
        return body;
      },
      () => ({}),
    );
  return next;
}

/** Every attribute an element has: each widget reads its own (widgets.json lists them). */
function attributesOf(element: HTMLElement): Attributes {
  const attrs: Attributes = {};
  for (const a of element.attributes) attrs[a.name] = a.value;
  return attrs;
}

function defineWidget(tag: string): void {
  // The script may be included twice on a page: the first definition wins.
  if (customElements.get(tag)) return;
  customElements.define(
    tag,
    class extends HTMLElement {
      // `declare`: no field initialisers, so no class-field helper in the script.
      declare node: HTMLElement | undefined;
      declare widget: WidgetModule | undefined;

      connectedCallback() {
        if (this.node) return this.update();
        const root = this.shadowRoot ?? this.attachShadow({ mode: "open" });
        const node = document.createElement("div");
        node.className = "gf-embed";
        root.append(node);
        this.node = node;
        // Any attribute changed later re-renders the widget with it.
        new MutationObserver(() => this.update()).observe(this, { attributes: true });
        Promise.all([load(tag), hello(tag, attributesOf(this))]).then(
          ([widget, answer]) => {
            // Not allowed: nothing is shown (no broken table, no refused frame); the console says why.
            if (refused) return;
            widget.addStyles(root, widget.css);
            this.widget = widget;
            this.update(answer.data);
            // Every element of this hello shares its answer: the runtime takes the data once.
            answer.data = undefined;
          },
          (error) => console.error(`Gravity Fantasy: could not load <${tag}>`, error),
        );
      }

      disconnectedCallback() {
        if (this.node && this.widget) this.widget.unmount(this.node);
      }

      update(data?: FirstData) {
        if (!this.widget || !this.node || !this.isConnected) return;
        this.widget.mount(this.widget.component, this.node, attributesOf(this), base, this, data);
      }
    },
  );
}

// Every widget of the build (widgets.json), by the element name its module is filed under.
for (const tag in __GF_FILES__) defineWidget(tag);
