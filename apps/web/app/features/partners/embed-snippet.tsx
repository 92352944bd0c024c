/**
 * The embed code generator of the admin dashboard: pick a partner, a widget and its options, copy
 * the three lines of HTML the partner pastes into their page.
 */
import { CATEGORIES, type Category, categoryToSlug } from "@game/core/categories";
import { useId, useState } from "react";
// The embed's one list of widgets (its build and loader read it too).
import catalogue from "../../../embed/widgets.json";

export type EmbedWidget = keyof typeof catalogue;

export type EmbedTheme = "light" | "dark" | "auto";

export interface SnippetOptions {
  /** The game's origin, e.g. https://gravityfantasy.example. */
  gameUrl: string;
  widget: EmbedWidget;
  /** Event id; optional for rankings (season) and the builder (the open event). */
  event?: number | null;
  category?: Category;
  username?: string;
  /** The partner's publishable key (team builder). */
  partnerKey?: string;
  theme?: EmbedTheme | null;
}

/** Escapes a value for a double-quoted HTML attribute. */
function attr(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

/** The HTML a partner pastes: the script (once per page) and the element. */
export function embedSnippet(o: SnippetOptions): string {
  const base = o.gameUrl.replace(/\/+$/, "");
  const attrs: [string, string][] = [];
  const event = o.event ? String(o.event) : null;
  switch (o.widget) {
    case "racer-table":
      if (event) attrs.push(["event", event]);
      attrs.push(["category", categoryToSlug(o.category ?? "Pro Men")]);
      break;
    case "player-rankings":
      if (event) attrs.push(["event", event]);
      break;
    case "league-rankings":
      break;
    case "team-grid":
      attrs.push(["username", o.username?.trim() || "USERNAME"]);
      if (event) attrs.push(["event", event]);
      break;
    case "team-builder":
      if (event) attrs.push(["event", event]);
      attrs.push(["partner", o.partnerKey || "YOUR_PUBLISHABLE_KEY"]);
      break;
  }
  if (o.theme) attrs.push(["theme", o.theme]);
  const tag = `gf-${o.widget}`;
  const list = attrs.map(([k, v]) => ` ${k}="${attr(v)}"`).join("");
  return [
    `<script src="${attr(base)}/embed/v1/widgets.js" async></script>`,
    `<${tag}${list}></${tag}>`,
  ].join("\n");
}

export interface EmbedSnippetProps {
  gameUrl: string;
  partners: readonly { name: string; publishableKey: string }[];
  events: readonly { id: number; name: string; status: string }[];
}

/** Options form and the generated code with a Copy button. */
export function EmbedSnippet({ gameUrl, partners, events }: EmbedSnippetProps) {
  const id = useId();
  const open = events.find((e) => e.status === "open");
  const [widget, setWidget] = useState<EmbedWidget>("racer-table");
  const [partnerKey, setPartnerKey] = useState(partners[0]?.publishableKey ?? "");
  const [event, setEvent] = useState<number | null>(open?.id ?? events[0]?.id ?? null);
  const [category, setCategory] = useState<Category>("Pro Men");
  const [username, setUsername] = useState("");
  const [theme, setTheme] = useState<EmbedTheme | "">("");
  const [copied, setCopied] = useState("");

  const code = embedSnippet({
    gameUrl,
    widget,
    event,
    category,
    username,
    partnerKey,
    theme: theme || null,
  });
  const eventOptional = widget === "player-rankings" || widget === "team-builder";
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      setCopied("Copied to the clipboard.");
    } catch {
      setCopied("Copying is blocked here: select the code and copy it by hand.");
    }
  };

  return (
    <section className="panel embed-snippet" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Embed code</h2>
      <p>
        Partners paste these lines where the widget should appear; the script line is needed once
        per page. The page's origin must be listed for the partner, or the widget stays empty.
      </p>
      <div className="embed-snippet-fields">
        <div className="field">
          <label htmlFor={`${id}-widget`}>Widget</label>
          <select
            id={`${id}-widget`}
            value={widget}
            onChange={(e) => setWidget(e.target.value as EmbedWidget)}
          >
            {Object.entries(catalogue).map(([value, { label }]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        {widget === "team-builder" ? (
          <div className="field">
            <label htmlFor={`${id}-partner`}>Partner</label>
            <select
              id={`${id}-partner`}
              value={partnerKey}
              onChange={(e) => setPartnerKey(e.target.value)}
            >
              {partners.length === 0 ? <option value="">Add a partner first</option> : null}
              {partners.map((p) => (
                <option key={p.publishableKey} value={p.publishableKey}>
                  {p.name}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        {widget !== "league-rankings" ? (
          <div className="field">
            <label htmlFor={`${id}-event`}>Event</label>
            <select
              id={`${id}-event`}
              value={event ?? ""}
              onChange={(e) => setEvent(e.target.value ? Number(e.target.value) : null)}
            >
              {eventOptional ? (
                <option value="">
                  {widget === "player-rankings" ? "Season (all events)" : "The open event"}
                </option>
              ) : null}
              {events.map((e) => (
                <option key={e.id} value={e.id}>
                  {e.name}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        {widget === "racer-table" ? (
          <div className="field">
            <label htmlFor={`${id}-category`}>First tab</label>
            <select
              id={`${id}-category`}
              value={category}
              onChange={(e) => setCategory(e.target.value as Category)}
            >
              {CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        {widget === "team-grid" ? (
          <div className="field">
            <label htmlFor={`${id}-username`}>Player's username</label>
            <input
              id={`${id}-username`}
              value={username}
              onChange={(e) => setUsername(e.target.value)}
              autoComplete="off"
              spellCheck={false}
            />
          </div>
        ) : null}
        <div className="field">
          <label htmlFor={`${id}-theme`}>Theme</label>
          <select
            id={`${id}-theme`}
            value={theme}
            onChange={(e) => setTheme(e.target.value as EmbedTheme | "")}
          >
            <option value="">Light (default)</option>
            <option value="dark">Dark</option>
            <option value="auto">Follow the reader's system</option>
          </select>
        </div>
      </div>
      <figure className="embed-snippet-code">
        <figcaption className="visually-hidden">Embed code</figcaption>
        {/* Long lines scroll inside the box on phones instead of widening the page. */}
        <pre style={{ overflowX: "auto", maxWidth: "100%" }}>
          <code>{code}</code>
        </pre>
      </figure>
      <p>
        <button type="button" className="button button--primary" onClick={copy}>
          Copy code
        </button>{" "}
        <span role="status" aria-live="polite">
          {copied}
        </span>
      </p>
    </section>
  );
}
