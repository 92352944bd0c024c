import type { MouseEvent, ReactElement, ReactNode } from "react";
import { racerName } from "../format.js";
import type { Racer } from "../types.js";

/** The per-row action (the "add" / price button of the team builder). */
export interface RacerAction {
  /** Visible text of the button; defaults to "Add". */
  label?: (racer: Racer) => ReactNode;
  /**
   * Accessible name of the button. Defaults to the visible text followed by the racer's name
   * ("Add Loic Bruni"). If you set it, include the visible text.
   */
  ariaLabel?: (racer: Racer) => string;
  /** Called when the button is pressed and the racer is not disabled. */
  onSelect?: (racer: Racer, event: MouseEvent<HTMLButtonElement>) => void;
  /**
   * Why the racer cannot be picked ("Already on your team"), or null when it can. A disabled
   * button stays focusable and shows the reason on hover and on keyboard focus.
   */
  disabledReason?: (racer: Racer) => string | null | undefined | false;
  /**
   * Renders enabled buttons as `<button type="submit" name={name} value={racer.id}>` so the
   * enclosing form posts without JavaScript.
   */
  name?: string;
  /** Column header (visually hidden); defaults to "Action". */
  header?: string;
}

/**
 * The racer table's per-row button, with the reason it is disabled as a tooltip. A module of its
 * own so a build whose table never has the column (the script-tag embed) can leave it out.
 */
export function ActionButton(props: {
  racer: Racer;
  action: RacerAction;
  tipId: string;
}): ReactElement {
  const { racer, action, tipId } = props;
  const reason = action.disabledReason?.(racer) || null;
  const visible = action.label ? action.label(racer) : "Add";
  const ariaLabel = action.ariaLabel?.(racer);
  const content = (
    <>
      {visible}
      {ariaLabel ? null : (
        <>
          {" "}
          <span className="gf-sr-only">{racerName(racer)}</span>
        </>
      )}
    </>
  );
  if (!reason) {
    return (
      <button
        type={action.name ? "submit" : "button"}
        name={action.name}
        value={action.name ? String(racer.id) : undefined}
        className="gf-button gf-button--primary"
        aria-label={ariaLabel}
        onClick={action.onSelect ? (event) => action.onSelect?.(racer, event) : undefined}
      >
        {content}
      </button>
    );
  }
  // aria-disabled (not disabled) keeps the button focusable so the reason can be read.
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: only dismisses the tooltip (Escape)
    <span
      className="gf-tip-wrap"
      onKeyDown={(event) => {
        if (event.key === "Escape") event.currentTarget.setAttribute("data-dismissed", "");
      }}
      onMouseLeave={(event) => event.currentTarget.removeAttribute("data-dismissed")}
      onBlur={(event) => event.currentTarget.removeAttribute("data-dismissed")}
    >
      <button
        type="button"
        className="gf-button gf-button--primary"
        aria-disabled="true"
        aria-label={ariaLabel}
        aria-describedby={tipId}
        onClick={(event) => event.preventDefault()}
      >
        {content}
      </button>
      <span role="tooltip" id={tipId} className="gf-tip">
        {reason}
      </span>
    </span>
  );
}
