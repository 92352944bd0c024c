/**
 * The team builder's save button (`/team-setup` and the partner's iframe): "Save Team" for a
 * first team, "Edit Team" after, disabled until every requirement is met, with the hint saying so.
 */
export function SaveTeamButton(props: {
  hasTeam: boolean;
  allMet: boolean;
  busy: boolean;
  /** The hint's id, unique on the page. */
  hintId: string;
  buttonClass: string;
  hintClass: string;
  /** A submit button posting `<name>=save` (works without JavaScript)... */
  name?: string;
  /** ...or a plain button. */
  onClick?: () => void;
}) {
  const { allMet, busy } = props;
  return (
    <>
      <button
        type={props.name ? "submit" : "button"}
        name={props.name}
        value={props.name ? "save" : undefined}
        className={props.buttonClass}
        onClick={props.onClick}
        disabled={!allMet || busy}
        aria-busy={busy || undefined}
        aria-describedby={allMet ? undefined : props.hintId}
      >
        {props.hasTeam ? "Edit Team" : "Save Team"}
      </button>
      {!allMet ? (
        <p id={props.hintId} className={props.hintClass}>
          Meet every requirement above to save your team.
        </p>
      ) : null}
    </>
  );
}
