/**
 * The partner iframe's framing: who may embed it (`frame-ancestors`), and which page it talks to.
 */
import { normalizeOrigin } from "@game/core";
import type { PartnerRow } from "@game/db";

/** `Content-Security-Policy` letting exactly the partner's origins frame the page. */
export function frameAncestors(partner: Pick<PartnerRow, "origins">): string {
  return partner.origins.length > 0
    ? `frame-ancestors ${partner.origins.join(" ")}`
    : "frame-ancestors 'none'";
}

/**
 * The partner page embedding the iframe, used as the exact target of the iframe's messages: the
 * `origin` the embed script put in the URL, else the Referer's origin, when either is one of the
 * partner's; else the partner's only origin. Null when it cannot be known (the iframe then
 * posts nothing to its parent).
 */
export function parentOrigin(
  partner: Pick<PartnerRow, "origins">,
  candidates: { param?: string | null; referer?: string | null },
): string | null {
  for (const value of [candidates.param, candidates.referer]) {
    const origin = value ? normalizeOrigin(value) : null;
    if (origin && partner.origins.includes(origin)) return origin;
  }
  return partner.origins.length === 1 ? partner.origins[0]! : null;
}
