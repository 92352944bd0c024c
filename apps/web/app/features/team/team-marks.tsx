/**
 * The marks of a team's roles: the "C" on its captain (docs/decisions/0168), the bench rider
 * (0169), and a racer's points as the team counts them, every point explained: a captain's
 * doubled, a bench rider's counted only when they came on, a replaced starter's not at all.
 */
import { racerName } from "@game/core/format";
import type { MouseEvent } from "react";
import { count } from "~/components/charts/labels";

/** "C" on the captain's slot; screen readers hear "Captain". */
export function CaptainMark() {
  return (
    <span className="captain-mark">
      <span aria-hidden="true">C</span>
      <span className="gf-sr-only">Captain</span>
    </span>
  );
}

/** How a racer counted for the team in a scored round. */
export interface TeamRole {
  captain?: boolean;
  bench?: boolean;
  /** "in": the bench rider who came on; "out": the starter they replaced. */
  autoSub?: "in" | "out" | null;
}

/** A racer's points for the team, and why: doubled, on the bench, or replaced. */
export function TeamPoints({
  points,
  captain = false,
  bench = false,
  autoSub = null,
  unit = "",
}: TeamRole & {
  points: number;
  /** Appended to the number (" pts"). */
  unit?: string;
}) {
  const shown = (n: number, why: string) => (
    <span className="team-points">
      {captain ? <CaptainMark /> : null} <strong>{`${count(n)}${unit}`}</strong>{" "}
      <span className="muted">({why})</span>
    </span>
  );
  if (autoSub === "in") return shown(points, "bench rider, came on: auto-sub");
  if (autoSub === "out") return shown(points, "did not start: replaced by the bench rider");
  if (bench) return shown(0, `bench rider, not needed: ${count(points)} not counted`);
  if (captain) return shown(points * 2, `${count(points)} × 2, captain`);
  return <strong>{`${count(points)}${unit}`}</strong>;
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
