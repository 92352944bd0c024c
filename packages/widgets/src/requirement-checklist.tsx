import { type ReactElement, type ReactNode, useId } from "react";
import { cx, rootProps, StateMessage, viewState, type WidgetBaseProps } from "./internal/common.js";
import type { Requirement } from "./types.js";

export type { WidgetBaseProps } from "./internal/common.js";
export type { Requirement, Theme } from "./types.js";

export interface RequirementChecklistProps extends WidgetBaseProps {
  /** The rules and whether each is met (e.g. `requirementChecklist(team)` from the rules). */
  requirements: readonly Requirement[];
  /** Visible title; defaults to "Team requirements". Pass `null` to hide it. */
  title?: ReactNode;
  /** Heading level of the title; defaults to 3. */
  headingLevel?: 2 | 3 | 4 | 5 | 6;
}

/** The live list of team rules (6 riders, 2 female, 1 junior, budget), each met or not. */
export function RequirementChecklist(props: RequirementChecklistProps): ReactElement {
  const { requirements, title = "Team requirements", headingLevel = 3 } = props;
  const id = useId();
  const state = viewState(props, requirements.length === 0);
  const unmet = requirements.filter((r) => !r.met).length;
  const Heading = `h${headingLevel}` as "h3";

  return (
    <div {...rootProps("gf-checklist", props)}>
      {title != null ? (
        <Heading className="gf-title" id={`${id}-title`}>
          {title}
        </Heading>
      ) : null}
      {state !== "data" ? (
        <StateMessage state={state} base={props} defaultEmpty="No requirements." />
      ) : (
        <>
          <ul
            className="gf-checklist-list"
            aria-labelledby={title != null ? `${id}-title` : undefined}
          >
            {requirements.map((r) => (
              <li
                key={r.id}
                className={cx("gf-check", r.met ? "gf-check--met" : "gf-check--unmet")}
                data-met={r.met}
              >
                <span className="gf-check-icon" aria-hidden="true">
                  {r.met ? "✓" : "✕"}
                </span>
                <span className="gf-check-label">
                  {r.label}
                  <span className="gf-sr-only">{r.met ? " (met)" : " (not met)"}</span>
                </span>
                {r.detail ? <span className="gf-check-detail">{r.detail}</span> : null}
              </li>
            ))}
          </ul>
          <p className="gf-checklist-summary" aria-live="polite">
            {unmet === 0
              ? "All requirements met."
              : `${unmet} requirement${unmet === 1 ? "" : "s"} not met.`}
          </p>
        </>
      )}
    </div>
  );
}
