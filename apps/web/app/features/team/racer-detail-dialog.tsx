import { formatPrice, racerName } from "@game/core/format";
import type { TeamRacerView } from "@game/db";
import { Portrait } from "@game/widgets";
import { type ReactNode, useEffect, useId, useRef } from "react";

export interface RacerDetailDialogProps {
  racer: TeamRacerView | null;
  /** Running in the browser: a true modal. Before that (or without JavaScript) an open panel. */
  hydrated: boolean;
  /** Where "Close" goes without JavaScript. */
  closeHref: string;
  onClose: () => void;
  /** The add/remove control for this rider (a submit button of the team form). */
  actions?: ReactNode;
}

/**
 * A rider's details: portrait, name, category, origin, 2024 rank and points, price, and a link to
 * the racer's page. A native `<dialog>` opened with `showModal()` traps focus, closes on Escape
 * and gives focus back to the control that opened it.
 */
export function RacerDetailDialog(props: RacerDetailDialogProps) {
  const { racer, hydrated } = props;
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !hydrated) return;
    if (racer && !dialog.open) dialog.showModal();
    if (!racer && dialog.open) dialog.close();
  }, [racer, hydrated]);

  if (!racer && !hydrated) return null;
  const name = racer ? racerName(racer) : "";

  return (
    <dialog
      ref={ref}
      className="racer-dialog"
      aria-labelledby={titleId}
      // Without JavaScript the dialog is simply shown open in the page.
      open={!hydrated && racer ? true : undefined}
      onClose={props.onClose}
    >
      {racer ? (
        <div className="racer-dialog__body">
          <div className="racer-dialog__head">
            {/* The widgets' styles apply inside .gf-root only. */}
            <span className="gf-root racer-dialog__portrait-wrap">
              <Portrait
                picture={racer.picture}
                racer={racer}
                size="large"
                className="racer-dialog__portrait"
              />
            </span>
            <div>
              <h2 id={titleId}>{name}</h2>
              <p className="racer-dialog__category">{racer.category}</p>
            </div>
          </div>
          <dl className="racer-dialog__facts">
            <div>
              <dt>Origin</dt>
              <dd>{racer.origin || "Not given"}</dd>
            </div>
            <div>
              <dt>2024 rank</dt>
              <dd>{racer.rank2024 > 0 ? `#${racer.rank2024}` : "Unranked"}</dd>
            </div>
            <div>
              <dt>2024 points</dt>
              <dd>{new Intl.NumberFormat("en-US").format(racer.totalPoint2024)}</dd>
            </div>
            <div>
              <dt>Price</dt>
              <dd>{formatPrice(racer.price)}</dd>
            </div>
          </dl>
          {/* A new tab: the draft being built lives in this page and would be lost. */}
          <p className="racer-dialog__page">
            <a href={`/racers/${racer.id}`} target="_blank" rel="noopener">
              {name}'s page: points, prices and picks per round
              <span aria-hidden="true"> ↗</span>
              <span className="visually-hidden"> (opens in a new tab)</span>
            </a>
          </p>
          <div className="racer-dialog__actions">
            {props.actions}
            {hydrated ? (
              <button type="button" className="button button--ghost" onClick={props.onClose}>
                Close
              </button>
            ) : (
              <a className="button button--ghost" href={props.closeHref}>
                Close
              </a>
            )}
          </div>
        </div>
      ) : null}
    </dialog>
  );
}
