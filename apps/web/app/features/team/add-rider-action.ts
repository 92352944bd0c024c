import { formatPrice, racerName } from "@game/core/format";
import type { TeamRacerView } from "@game/db";
import type { RacerAction } from "@game/widgets";
import type { MouseEvent } from "react";
import type { TeamDraft } from "./use-team-draft";

/** "Add Loic Bruni for $150,000": the add button's name, at the rider's price in this draft. */
export const addRiderLabel = (d: TeamDraft, racer: TeamRacerView) =>
  `Add ${racerName(racer)} for ${formatPrice(d.priceOf(racer))}`;

/**
 * The racer table's add button for a draft, on the site and in the embed alike: the price is the
 * button, and a rider who cannot be added says why. `name` makes it a submit button (no
 * JavaScript).
 */
export function addRiderAction(
  d: TeamDraft,
  onSelect: (racer: TeamRacerView, event: MouseEvent) => void,
  name?: string,
): RacerAction {
  // The table's rows are the racers the builder gave it: TeamRacerView.
  const view = (r: unknown) => r as TeamRacerView;
  return {
    header: "Add to team",
    label: (r) => formatPrice(d.priceOf(view(r))),
    ariaLabel: (r) => addRiderLabel(d, view(r)),
    disabledReason: (r) => d.blockReason(view(r)),
    name,
    onSelect: (r, event) => onSelect(view(r), event),
  };
}
