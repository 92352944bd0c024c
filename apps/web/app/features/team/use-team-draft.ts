/**
 * The team being built, in the page: the one draft of both team builders (`/team-setup` and the
 * partner iframe). Which riders may be added, the checklist and the bank all come from the
 * @game/core rules the server checks again on save; a racer on the saved team counts at the price
 * the player paid (docs/decisions/0101).
 */
import {
  ADD_BLOCK_MESSAGES,
  addBlockReason,
  formatPrice,
  racerName,
  requirementChecklist,
  teamCost,
} from "@game/core";
import type { TeamRacerView } from "@game/db";
import { useMemo, useState } from "react";

export interface TeamDraftOptions {
  eventId: number;
  racers: TeamRacerView[];
  budget: number;
  /** The draft to start from (racer ids in slot order). */
  initial: number[];
  /** What the player paid for the racers on their saved team, by racer id. */
  paid?: Record<number, number>;
  /** Why no rider can be added at all (teams locked, signed out), or null. */
  blocked: string | null;
}

export function useTeamDraft(opts: TeamDraftOptions) {
  const { eventId, racers, budget, paid, blocked } = opts;
  const byId = useMemo(() => new Map(racers.map((r) => [r.id, r])), [racers]);
  const [draft, setDraft] = useState<number[]>(opts.initial);
  // Read by screen readers after each change (a visually hidden live region).
  const [announcement, setAnnouncement] = useState("");

  const team = draft
    .map((id) => byId.get(id))
    .filter((r): r is TeamRacerView => !!r)
    .map((r) => (paid?.[r.id] !== undefined ? { ...r, price: paid[r.id]! } : r));
  const requirements = requirementChecklist(team, budget);
  const allMet = requirements.every((r) => r.met);
  const bank = budget - teamCost(team);

  /** Why this rider cannot be added now, in the words the table and the dialog show; or null. */
  const blockReason = (racer: TeamRacerView): string | null => {
    if (blocked) return blocked;
    const reason = addBlockReason(team, racer, { gameId: eventId, budget });
    return reason ? ADD_BLOCK_MESSAGES[reason] : null;
  };

  /** Adds the rider when the rules allow it; false (and nothing changes) when they do not. */
  const add = (racer: TeamRacerView): boolean => {
    if (blockReason(racer)) return false;
    setDraft((d) => [...d, racer.id]);
    setAnnouncement(`Added ${racerName(racer)}. Bank ${formatPrice(bank - racer.price)}.`);
    return true;
  };

  const remove = (racer: { id: number }) => {
    const r = byId.get(racer.id);
    setDraft((d) => d.filter((id) => id !== racer.id));
    if (r) setAnnouncement(`Removed ${racerName(r)}. Bank ${formatPrice(bank + r.price)}.`);
  };

  return {
    draft,
    /** Replaces the whole draft (the server's answer: a saved team, a sign-in, a sign-out). */
    setDraft,
    byId,
    team,
    requirements,
    allMet,
    bank,
    blockReason,
    add,
    remove,
    announcement,
    setAnnouncement,
  };
}
