/**
 * The team being built, in the page: the one draft of both team builders (`/team-setup` and the
 * partner iframe). Which riders may be added, the checklist and the bank all come from the
 * @game/core rules the server checks again on save: a racer of the saved team counts at their
 * selling price, against the bank plus the saved team's selling value (docs/decisions/0141).
 */
import { formatPrice, racerName } from "@game/core/format";
import { type CompetitionRules, DEFAULT_RULES, splitBench } from "@game/core/rules";
import { draftPrice, type HeldRacer, sellingPrice, teamWorth } from "@game/core/selling-price";
import {
  addBlockMessage,
  addBlockReason,
  requirementChecklist,
  teamCost,
  transferRound,
} from "@game/core/team";
import type { TeamRacerView, TransferStatus } from "@game/db";
import { useMemo, useState } from "react";

export interface TeamDraftOptions {
  eventId: number;
  racers: TeamRacerView[];
  /** The saved team's budget (1,000,000 without one): its bank plus the prices paid. */
  budget: number;
  /** The draft to start from (racer ids in slot order). */
  initial: number[];
  /** The racers of the saved team, by id: what the player paid and today's price. */
  held?: Record<number, HeldRacer>;
  /** Why no rider can be added at all (teams locked, signed out), or null. */
  blocked: string | null;
  /** The competition's rules (the spec's by default): the ones the server saves by. */
  rules?: CompetitionRules;
  /** The captain to start from (a racer id of `initial`), where the rules have captains. */
  initialCaptain?: number | null;
  /** The transfer account (where the rules limit changes), from the server. */
  transfers?: TransferStatus | null;
}

/** A draft and what the page shows of it: `useTeamDraft`'s answer. */
export type TeamDraft = ReturnType<typeof useTeamDraft>;

export function useTeamDraft(opts: TeamDraftOptions) {
  const { eventId, racers, budget, held, blocked } = opts;
  const rules = opts.rules ?? DEFAULT_RULES;
  const byId = useMemo(() => new Map(racers.map((r) => [r.id, r])), [racers]);
  const [draft, setDraft] = useState<number[]>(opts.initial);
  const [captainChoice, setCaptain] = useState<number | null>(opts.initialCaptain ?? null);
  // Where the rules have a bench, the racer after the starters sits on it (decision 0169).
  const { starters, bench } = splitBench(draft, rules);
  // A captain is one of the starters, and only where the rules have captains (decision 0168).
  const captain =
    rules.captain && captainChoice !== null && starters.includes(captainChoice)
      ? captainChoice
      : null;
  // Read by screen readers after each change (a visually hidden live region).
  const [announcement, setAnnouncement] = useState("");

  // What the player has to spend: the bank plus what the saved team would sell for.
  const worth = teamWorth(budget, Object.values(held ?? {}));
  /** The racer at their price in this draft: one of the saved team at their selling price. */
  const priced = (r: TeamRacerView): TeamRacerView => {
    const h = held?.[r.id];
    return h ? { ...r, price: draftPrice(r.price, h) } : r;
  };

  const team = draft
    .map((id) => byId.get(id))
    .filter((r): r is TeamRacerView => !!r)
    .map(priced);
  const requirements = requirementChecklist(team, worth, rules);
  const allMet = requirements.every((r) => r.met);
  const bank = worth - teamCost(team);

  /** Why this rider cannot be added now, in the words the table and the dialog show; or null. */
  const blockReason = (racer: TeamRacerView): string | null => {
    if (blocked) return blocked;
    const reason = addBlockReason(team, priced(racer), { gameId: eventId, budget: worth, rules });
    return reason ? addBlockMessage(reason, rules) : null;
  };

  /** Adds the rider when the rules allow it; false (and nothing changes) when they do not. */
  const add = (racer: TeamRacerView): boolean => {
    if (blockReason(racer)) return false;
    setDraft((d) => [...d, racer.id]);
    setAnnouncement(`Added ${racerName(racer)}. Bank ${formatPrice(bank - priced(racer).price)}.`);
    return true;
  };

  const remove = (racer: { id: number }) => {
    const r = byId.get(racer.id);
    setDraft((d) => d.filter((id) => id !== racer.id));
    if (r) setAnnouncement(`Removed ${racerName(r)}. Bank ${formatPrice(bank + priced(r).price)}.`);
  };

  /**
   * The line under a racer in the grid: category and price, and for a racer of the saved team
   * whose selling price is not what was paid, what they sell for against what was paid.
   */
  const slotMeta = (racer: TeamRacerView): string => {
    const h = held?.[racer.id];
    const sells = h ? sellingPrice(h.paid, h.now) : null;
    return h && sells !== h.paid
      ? `${racer.category} · sells for ${formatPrice(sells!)} (paid ${formatPrice(h.paid)})`
      : `${racer.category} · ${formatPrice(priced(racer).price)}`;
  };

  /**
   * Puts a starter on the bench: they move to the slot after the starters, and the bench rider
   * takes their place among them. Only with a full team and its bench rider.
   */
  const toBench = (racer: { id: number }) => {
    if (blocked || bench === null || bench === racer.id || !draft.includes(racer.id)) return;
    setDraft((d) => [...d.filter((id) => id !== racer.id), racer.id]);
    const r = byId.get(racer.id);
    const b = byId.get(bench);
    if (r && b) setAnnouncement(`${racerName(r)} is on the bench; ${racerName(b)} starts.`);
  };

  /** Names the rider captain, or takes the armband off when they already wear it. */
  const toggleCaptain = (racer: { id: number }) => {
    if (blocked || !rules.captain || !starters.includes(racer.id)) return;
    const r = byId.get(racer.id);
    const off = captain === racer.id;
    setCaptain(off ? null : racer.id);
    if (r) {
      setAnnouncement(
        off
          ? `${racerName(r)} is no longer captain.`
          : `${racerName(r)} is captain: their points count double.`,
      );
    }
  };

  // What the draft's changes cost (decision 0170): core's rule on the server's account.
  const transferAccount = opts.transfers ?? null;
  const [wildcard, setWildcard] = useState(
    transferAccount?.wildcard.eventId === eventId && transferAccount.wildcard.offered,
  );
  const transfers = transferAccount
    ? transferRound(
        transferAccount.leftBefore,
        transferAccount.kept
          ? draft.filter((id) => !transferAccount.kept!.includes(id)).length
          : draft.length,
        wildcard,
        rules,
      )
    : null;

  return {
    draft,
    /** The draft's transfers this round, or null where changes are unlimited. */
    transfers,
    wildcard,
    setWildcard,
    /** The draft's captain (a racer id of the draft), or null. */
    captain,
    /** Replaces the captain (the server's answer). */
    setCaptain,
    toggleCaptain,
    /** The bench rider (a racer id of the draft), or null. */
    bench,
    toBench,
    /** Replaces the whole draft (the server's answer: a saved team, a sign-in, a sign-out). */
    setDraft,
    byId,
    team,
    requirements,
    allMet,
    /** What the draft may cost: the bank plus the saved team's selling value. */
    worth,
    bank,
    /** A racer's price in this draft (what adding them takes from the bank). */
    priceOf: (racer: TeamRacerView) => priced(racer).price,
    slotMeta,
    blockReason,
    add,
    remove,
    announcement,
    setAnnouncement,
  };
}
