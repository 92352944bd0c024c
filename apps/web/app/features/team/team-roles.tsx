/**
 * The captain and bench controls of a team being built (docs/decisions/0168, 0169): only
 * competitions whose rules have them show them, so the team page fetches this apart
 * (docs/decisions/0180).
 */
import { racerName } from "@game/core/format";
import { BENCH_RULE, CAPTAIN_RULE, type CompetitionRules } from "@game/core/rules";
import type { TeamRacerView } from "@game/db";
import { CaptainToggle } from "./team-marks";

export { CaptainMark } from "./team-marks";

/**
 * A starter's buttons in the team grid, where the rules have them: captain (C) and bench swap.
 * Submit buttons: without JavaScript the server applies them.
 */
export function SlotButtons(props: {
  racer: TeamRacerView;
  rules: CompetitionRules;
  captain: number | null;
  bench: number | null;
  onCaptain: (racer: TeamRacerView) => void;
  onBench: (racer: TeamRacerView) => void;
  /**
   * The form's field names (team-form.ts `TEAM_FIELDS`), passed in: importing them would tie this
   * part's file to the team page's own.
   */
  fields: { makeCaptain: string; toBench: string };
}) {
  const { racer, rules, captain, bench } = props;
  return (
    <>
      {rules.captain && racer.id !== bench ? (
        <CaptainToggle
          racer={racer}
          on={captain === racer.id}
          name={props.fields.makeCaptain}
          onToggle={(event) => {
            event.preventDefault();
            props.onCaptain(racer);
          }}
        />
      ) : null}
      {bench !== null && racer.id !== bench ? (
        <button
          type="submit"
          name={props.fields.toBench}
          value={racer.id}
          className="button button--ghost bench-toggle"
          onClick={(event) => {
            event.preventDefault();
            props.onBench(racer);
          }}
        >
          Bench <span className="gf-sr-only">{racerName(racer)}</span>
        </button>
      ) : null}
    </>
  );
}

/** What the captain and the bench are, or how to pick them, where the rules have them. */
export function RoleHints(props: {
  rules: CompetitionRules;
  captain: TeamRacerView | null;
  bench: TeamRacerView | null;
}) {
  const { rules, captain, bench } = props;
  return (
    <>
      {rules.captain ? (
        <p className="hint team-builder__captain-hint">
          {captain === null
            ? `${CAPTAIN_RULE} Press C beside a rider to name them.`
            : `${racerName(captain)} is your captain: their points count double.`}
        </p>
      ) : null}
      {rules.bench ? (
        <p className="hint team-builder__bench-hint">
          {bench === null
            ? `${BENCH_RULE} The rider you pick after your first ${rules.teamSize} sits on it.`
            : `${racerName(bench)} is on your bench. Press Bench beside a starter to swap them.`}
        </p>
      ) : null}
    </>
  );
}
