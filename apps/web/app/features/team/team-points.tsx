/**
 * A racer's points as the team counts them, every point explained (docs/decisions/0168, 0169): a
 * captain's doubled, a bench rider's counted only when they came on, a replaced starter's not at
 * all. Apart from the builder's marks: scored rounds only (event home, player pages).
 */
import { count } from "~/components/charts/labels";
import { CaptainMark } from "./team-marks";

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

/** The round's transfers in words (decision 0170), or nothing where changes were unlimited. */
export function transfersText(t: {
  changes: number | null;
  cost: number;
  wildcard: boolean;
}): string {
  if (t.changes === null) return "";
  const changes = `${t.changes} ${t.changes === 1 ? "transfer" : "transfers"}`;
  if (t.wildcard) return `${changes}, free with the wildcard · `;
  return t.cost > 0 ? `${changes}: −${count(t.cost)} points · ` : `${changes}, free · `;
}
