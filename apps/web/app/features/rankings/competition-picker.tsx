/**
 * The ranking pages' competition switch: a labelled select in a GET form with its own button
 * (no change of page on selecting alone, WCAG 3.2.2), so it works by keyboard and without
 * JavaScript. Choosing starts the chosen competition's table at its first page.
 */
import { Form, Link } from "@remix-run/react";
import { HALL_OF_FAME } from "./ranking-links";

export interface CompetitionPickerProps {
  /** Competitions with a ranking, latest first. */
  competitions: readonly { slug: string; name: string }[];
  /** The slug shown now. */
  current: string | null;
  /** Unique per page: the select's id. */
  id: string;
}

export function CompetitionPicker({ competitions, current, id }: CompetitionPickerProps) {
  // One competition (or none): nothing to choose; the heading names it.
  if (competitions.length < 2 || current === null) return null;
  return (
    <Form method="get" className="competition-picker" aria-label="Choose the competition">
      <label htmlFor={id}>Competition</label>
      {/* Keyed by the shown competition: after a switch, it shows the new one chosen. */}
      <select id={id} name="competition" defaultValue={current} key={current}>
        {competitions.map((c) => (
          <option key={c.slug} value={c.slug}>
            {c.name}
          </option>
        ))}
      </select>
      <button type="submit" className="button button--ghost">
        Show
      </button>
    </Form>
  );
}

/** The line pointing to the past competitions' podiums. */
export function HallOfFameLink() {
  return (
    <p className="muted">
      Past winners: the <Link to={HALL_OF_FAME}>hall of fame</Link> keeps every finished
      competition's podium.
    </p>
  );
}
