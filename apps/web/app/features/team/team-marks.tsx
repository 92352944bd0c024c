/** The captain's marks (docs/decisions/0168): the "C" on a team's captain, and its toggle. */
import { racerName } from "@game/core/format";
import type { MouseEvent } from "react";

/** "C" on the captain's slot; screen readers hear "Captain". */
export function CaptainMark() {
  return (
    <span className="captain-mark">
      <span aria-hidden="true">C</span>
      <span className="gf-sr-only">Captain</span>
    </span>
  );
}

/**
 * The "C" button beside a rider of a team being built: names them captain, or takes the armband
 * off. `name`/`value` make it a submit button that works without JavaScript.
 */
export function CaptainToggle({
  racer,
  on,
  onToggle,
  name,
  className = "captain-toggle",
}: {
  racer: { id: number; firstName: string; lastName: string };
  on: boolean;
  onToggle: (event: MouseEvent<HTMLButtonElement>) => void;
  name?: string;
  className?: string;
}) {
  return (
    <button
      type={name ? "submit" : "button"}
      name={name}
      value={name ? racer.id : undefined}
      className={className}
      aria-pressed={on}
      title={on ? "Captain (double points)" : "Make captain"}
      onClick={onToggle}
    >
      <span aria-hidden="true">C</span>
      <span className="gf-sr-only">Captain: {racerName(racer)}</span>
    </button>
  );
}
