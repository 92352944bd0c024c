import type { MouseEvent, ReactElement, ReactNode } from "react";
import { formatPrice, racerName } from "./format.js";
import {
  cx,
  defaultRenderLink,
  type RenderLink,
  rootProps,
  StateMessage,
  viewState,
  type WidgetBaseProps,
} from "./internal/common.js";
import { Portrait } from "./internal/portrait.js";
import type { Racer } from "./types.js";

export type { LinkRenderProps, RenderLink, WidgetBaseProps } from "./internal/common.js";
export { newTabLink } from "./internal/common.js";
export type { Racer, Theme } from "./types.js";

export const TEAM_SLOTS = 6;

/**
 * Props of `TeamGrid`. `R` is your racer type (any `Racer` with extra fields, e.g. a result):
 * the callbacks receive the objects you passed in.
 */
export interface TeamGridProps<R extends Racer = Racer> extends WidgetBaseProps {
  /** The team in slot order (up to 6); `null`/`undefined` entries are empty slots. */
  racers: readonly (R | null | undefined)[];
  /** Number of slots; defaults to 6. */
  slots?: number;
  /** Called when a racer's Remove button is pressed (client-side teams). */
  onRemove?: (racer: R, event: MouseEvent<HTMLButtonElement>) => void;
  /**
   * Renders Remove buttons as `<button type="submit" name={removeFormName} value={racer.id}>`
   * so the enclosing `<form method="post">` works without JavaScript. `onRemove` is still
   * called when given (call `event.preventDefault()` there to stay on the page).
   */
  removeFormName?: string;
  /** Hides every Remove button (someone else's team, or a locked one). */
  readOnly?: boolean;
  /** Makes racer names buttons, e.g. to open a details modal. */
  onRacerClick?: (racer: R) => void;
  /** Makes racer names links (e.g. to the racer's page); wins over `onRacerClick`. */
  racerHref?: (racer: R) => string;
  /** Renders links through the host router; defaults to `<a>`. */
  renderLink?: RenderLink;
  /** Replaces the "category · price" line under a racer's name. */
  renderMeta?: (racer: R) => ReactNode;
  /** Extra content at the end of a racer's slot, before the Remove button (e.g. points). */
  renderAside?: (racer: R) => ReactNode;
  /** Prefix of portrait URLs (`${imageBase}/img/racer_portrait/${picture}`). */
  imageBase?: string;
  /** Image shown when a racer has no portrait; defaults to the racer's generated avatar. */
  placeholderSrc?: string;
  /** Accessible name of the grid; defaults to "Your team". */
  label?: string;
  /** Visible text of the Remove buttons; defaults to "Remove". */
  removeLabel?: string;
  /** Text of an empty slot; defaults to "Empty slot". */
  emptySlotLabel?: ReactNode;
  /** When given, shows the team cost and the money left from this budget. */
  budget?: number;
}

/** The six team slots, with an optional Remove action per racer. */
export function TeamGrid<R extends Racer = Racer>(props: TeamGridProps<R>): ReactElement {
  const {
    racers,
    onRemove,
    removeFormName,
    readOnly,
    onRacerClick,
    racerHref,
    renderLink = defaultRenderLink,
    renderMeta,
    renderAside,
    imageBase,
    placeholderSrc,
    label = "Your team",
    removeLabel = "Remove",
    emptySlotLabel = "Empty slot",
    budget,
  } = props;
  const slots = Math.max(props.slots ?? TEAM_SLOTS, racers.length);
  const filled = racers.filter((r): r is R => r != null);
  const state = viewState(props, filled.length === 0);
  const canRemove = !readOnly && (onRemove != null || removeFormName != null);
  const cost = filled.reduce((sum, r) => sum + (r.price || 0), 0);

  return (
    <div {...rootProps("gf-team", props)}>
      {state === "data" ? null : (
        <StateMessage state={state} base={props} defaultEmpty="No riders picked yet." />
      )}
      {state === "error" ? null : (
        <ol
          className={cx(
            "gf-team-grid",
            canRemove && "gf-team-grid--removable",
            state === "loading" && "gf-team-grid--loading",
          )}
          aria-label={label}
          aria-busy={state === "loading" || undefined}
        >
          {Array.from({ length: slots }, (_, i) => {
            const racer = state === "loading" ? undefined : racers[i];
            if (!racer) {
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: slots are positional
                <li key={`empty-${i}`} className="gf-slot gf-slot--empty">
                  <span className="gf-slot-number" aria-hidden="true">
                    {i + 1}
                  </span>
                  <span className="gf-slot-empty-text">
                    {emptySlotLabel}{" "}
                    <span className="gf-sr-only">
                      ({i + 1} of {slots})
                    </span>
                  </span>
                </li>
              );
            }
            const name = racerName(racer);
            return (
              <li key={racer.id} className="gf-slot">
                <Portrait
                  picture={racer.picture}
                  racer={racer}
                  imageBase={imageBase}
                  placeholderSrc={placeholderSrc}
                />
                <span className="gf-slot-body">
                  {racerHref ? (
                    renderLink({
                      href: racerHref(racer),
                      className: "gf-slot-name gf-link",
                      children: name,
                    })
                  ) : onRacerClick ? (
                    <button
                      type="button"
                      className="gf-slot-name gf-linklike"
                      onClick={() => onRacerClick(racer)}
                    >
                      {name}
                    </button>
                  ) : (
                    <span className="gf-slot-name">{name}</span>
                  )}
                  <span className="gf-slot-meta">
                    {renderMeta ? (
                      renderMeta(racer)
                    ) : (
                      <>
                        {racer.category} · {formatPrice(racer.price)}
                      </>
                    )}
                  </span>
                </span>
                {renderAside?.(racer)}
                {canRemove ? (
                  <button
                    type={removeFormName ? "submit" : "button"}
                    name={removeFormName}
                    value={removeFormName ? String(racer.id) : undefined}
                    className="gf-button gf-button--secondary gf-slot-remove"
                    onClick={onRemove ? (event) => onRemove(racer, event) : undefined}
                  >
                    {removeLabel} <span className="gf-sr-only">{name}</span>
                  </button>
                ) : null}
              </li>
            );
          })}
        </ol>
      )}
      {budget != null && (state === "data" || state === "empty") ? (
        <p className="gf-team-summary">
          <span>
            Team cost <strong>{formatPrice(cost)}</strong>
          </span>
          <span className={cx(budget - cost < 0 && "gf-text-danger")}>
            Bank <strong>{formatPrice(budget - cost)}</strong>
          </span>
        </p>
      ) : null}
    </div>
  );
}
