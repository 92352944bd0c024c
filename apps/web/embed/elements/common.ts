/** Attribute readers and API-state helpers shared by the embeddable widgets. */
import { CATEGORY_SLUGS, type Category, GameApiError } from "@game/widgets/client";
import { useEvents } from "@game/widgets/hooks";
import type { Attributes, EmbedContext } from "../runtime";

export type Theme = "light" | "dark" | "auto";

export function themeOf(attrs: Attributes): Theme | undefined {
  const t = attrs.theme;
  return t === "light" || t === "dark" || t === "auto" ? t : undefined;
}

/** A positive integer attribute, or undefined. */
export function intOf(value: string | null | undefined): number | undefined {
  return value && /^\d{1,9}$/.test(value.trim()) && Number(value) > 0 ? Number(value) : undefined;
}

/** "pro-women" or "Pro Women" -> "Pro Women". */
export function categoryOf(value: string | null | undefined): Category | undefined {
  if (!value) return undefined;
  const v = value.trim().toLowerCase();
  return (Object.keys(CATEGORY_SLUGS) as Category[]).find(
    (c) => c.toLowerCase() === v || CATEGORY_SLUGS[c] === v,
  );
}

/** What a reader sees when the game cannot be reached (network down). */
export function errorMessage(error: Error | undefined): string | undefined {
  if (!error) return undefined;
  if (error instanceof GameApiError && error.code === "team_private") {
    return "This team stays private until the event locks.";
  }
  if (error instanceof GameApiError && error.status > 0) return error.message;
  return "Could not load Gravity Fantasy data. Please try again later.";
}

/** The `competition` attribute: a competition's slug, or undefined (blank means none). */
export function competitionOf(attrs: Attributes): string | undefined {
  return attrs.competition?.trim() || undefined;
}

/** The open event of `list`, else the latest one: what a widget without an `event` shows. */
export function shownEvent<E extends { id: number; status: string; startsAt: string }>(list: E[]) {
  // ISO times compare as text.
  const latest = list.reduce<E | undefined>(
    (a, e) => (a && a.startsAt >= e.startsAt ? a : e),
    undefined,
  );
  return (list.find((e) => e.status === "open") ?? latest)?.id;
}

/** The event in the `event` attribute, else the open event (else the latest one). */
export function useEventId(attr: string | null | undefined, competition?: string) {
  const explicit = intOf(attr);
  // Without an event: the open round (else the latest) of the `competition` attribute's
  // competition, or of any. Without a fetch (an explicit event) nothing loads or fails.
  const events = useEvents({ enabled: !explicit, competition });
  return { ...events, id: explicit ?? shownEvent(events.data?.data ?? []) };
}

/**
 * A racer's page on the game's site (the origin the script came from). The elements open it in
 * a new tab (`newTabLink`): the reader keeps the partner's page.
 */
export function racerPage(ctx: EmbedContext) {
  return (r: { id: number }) => `${ctx.base}/racers/${r.id}`;
}
