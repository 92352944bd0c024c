/**
 * Attribute readers of one or two widgets each, apart from attributes.ts (in the chunk every
 * widget loads), so a page loads only its own widget's. Pure: the hello's plan reads them too.
 */

import type { Category } from "@game/widgets/client";
import type { Attributes } from "../runtime";
import { categoryOf, intOf } from "./attributes";

/** The `username` attribute, trimmed; null when blank. */
export function usernameOf(attrs: Attributes): string | null {
  return attrs.username?.trim() || null;
}

/** The one category a racer table without tabs (`hide-tabs`) asks for, else undefined: all. */
export function onlyCategoryOf(attrs: Attributes): Category | undefined {
  return attrs["hide-tabs"] != null ? categoryOf(attrs.category) : undefined;
}

/** The `page` attribute of a ranking: a page number, 1 unless it names another. */
export function pageOf(value: string | null | undefined): number {
  return intOf(value) ?? 1;
}
