/**
 * What the widgets read from their elements' attributes, and the event a widget without one shows.
 * Pure: the hello's plan of the widgets' first requests (../first-requests.ts) reads them too, on
 * the server.
 */
import { CATEGORY_SLUGS, type Category } from "@game/widgets/client";
import type { Attributes } from "../runtime";

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
