import { type MouseEvent, type ReactElement, useId } from "react";
import { EVENT_STATUS_LABELS } from "./events.js";
import { assetUrl, formatEventDate } from "./format.js";
import {
  cx,
  defaultRenderLink,
  isModifiedClick,
  type RenderLink,
  rootProps,
  StateMessage,
  viewState,
  type WidgetBaseProps,
} from "./internal/common.js";
import type { EventStatus, GameEvent, Theme } from "./types.js";

// Pure, also in `@game/widgets/helpers`.
export { EVENT_STATUS_LABELS } from "./events.js";
export type { LinkRenderProps, RenderLink, WidgetBaseProps } from "./internal/common.js";
export type { EventStatus, GameEvent, Theme } from "./types.js";

/** What an event card does; shared by `EventCard` and `EventList`. */
export interface EventCardOptions {
  /** Visitor variant: open events offer "Sign In to Play" instead of "Enter Event". */
  visitor?: boolean;
  /** Called when an open event's Enter Event action is used. */
  onEnter?: (event: GameEvent, domEvent: MouseEvent<HTMLElement>) => void;
  /** Renders Enter Event as a link (works without JavaScript), e.g. `(e) => `/game/${e.id}``. */
  eventHref?: (event: GameEvent) => string;
  /** Called when a visitor uses Sign In to Play. */
  onSignIn?: (event: GameEvent, domEvent: MouseEvent<HTMLElement>) => void;
  /** Renders Sign In to Play as a link. */
  signInHref?: string | ((event: GameEvent) => string);
  /** Renders links through the host router; defaults to `<a>`. */
  renderLink?: RenderLink;
  /** Prefix for root-relative cover and logo URLs. */
  imageBase?: string;
  /**
   * The reader's IANA time zone ("Europe/Paris") for the start date; defaults to the browser's.
   * Pass it when rendering on a server, so the server's text is the browser's.
   */
  timeZone?: string;
  /** Formats `startsAt`; defaults to "Sunday 4 May 2025, 11:00 CEST" (see `timeZone`). */
  formatDate?: (iso: string) => string;
  /** Heading level of the event name; defaults to 3. */
  headingLevel?: 2 | 3 | 4 | 5 | 6;
  /** Defaults to "Enter Event". */
  enterLabel?: string;
  /** Defaults to "Sign In to Play". */
  signInLabel?: string;
  /** Status badge texts; default Open, Closed, Archived. */
  statusLabels?: Partial<Record<EventStatus, string>>;
}

export interface EventCardProps extends EventCardOptions {
  event: GameEvent;
  className?: string;
  theme?: Theme;
}

/**
 * One event: cover, logo, name, date and status. Only an open event is clickable (the whole
 * card activates its action); closed and archived events are shown disabled with their status.
 */
export function EventCard(props: EventCardProps): ReactElement {
  const { event, visitor, onEnter, eventHref, onSignIn, signInHref, imageBase } = props;
  const renderLink = props.renderLink ?? defaultRenderLink;
  const id = useId();
  const open = event.status === "open";
  const Heading = `h${props.headingLevel ?? 3}` as "h3";
  const cover = assetUrl(event.cover, imageBase);
  const logo = assetUrl(event.logo, imageBase);
  const statusLabel = props.statusLabels?.[event.status] ?? EVENT_STATUS_LABELS[event.status];

  let action: ReactElement | null = null;
  if (open) {
    const label = visitor
      ? (props.signInLabel ?? "Sign In to Play")
      : (props.enterLabel ?? "Enter Event");
    const handler = visitor ? onSignIn : onEnter;
    const href = visitor
      ? typeof signInHref === "function"
        ? signInHref(event)
        : signInHref
      : eventHref?.(event);
    const content = (
      <>
        {label}
        <span className="gf-sr-only">: {event.name}</span>
      </>
    );
    const className = "gf-button gf-button--primary gf-stretch";
    action = href ? (
      renderLink({
        href,
        className,
        children: content,
        onClick: handler
          ? (domEvent) => {
              if (!isModifiedClick(domEvent)) handler(event, domEvent);
            }
          : undefined,
      })
    ) : (
      <button
        type="button"
        className={className}
        onClick={handler ? (domEvent) => handler(event, domEvent) : undefined}
      >
        {content}
      </button>
    );
  }

  return (
    <article
      {...rootProps(
        cx("gf-event-card", `gf-event-card--${event.status}`, !open && "gf-event-card--disabled"),
        props,
      )}
      aria-labelledby={`${id}-name`}
      data-status={event.status}
    >
      <div className="gf-event-media">
        {cover ? (
          <img className="gf-event-cover" src={cover} alt="" loading="lazy" decoding="async" />
        ) : (
          <div className="gf-event-cover gf-event-cover--none" />
        )}
        {logo ? <img className="gf-event-logo" src={logo} alt="" decoding="async" /> : null}
      </div>
      <div className="gf-event-body">
        <Heading className="gf-event-name" id={`${id}-name`}>
          {event.name}
        </Heading>
        {event.startsAt ? (
          <p className="gf-event-date">
            <time dateTime={event.startsAt}>
              {props.formatDate
                ? props.formatDate(event.startsAt)
                : formatEventDate(event.startsAt, props.timeZone)}
            </time>
          </p>
        ) : null}
        <div className="gf-event-footer">
          <span className={cx("gf-badge", `gf-badge--${event.status}`)}>
            <span className="gf-sr-only">Status: </span>
            {statusLabel}
          </span>
          {action}
        </div>
      </div>
    </article>
  );
}

export interface EventListProps extends WidgetBaseProps, EventCardOptions {
  events: readonly GameEvent[];
  /** Accessible name of the list; defaults to "Events". */
  label?: string;
}

/** A responsive grid of event cards, in the order given. */
export function EventList(props: EventListProps): ReactElement {
  const { events, label = "Events", className, theme, ...cardOptions } = props;
  const state = viewState(props, events.length === 0);
  if (state !== "data") {
    return (
      <div {...rootProps("gf-event-list-state", props)}>
        <StateMessage state={state} base={props} defaultEmpty="No events yet." />
      </div>
    );
  }
  return (
    <ul {...rootProps("gf-event-list", props)} aria-label={label}>
      {events.map((event) => (
        <li key={event.id} className="gf-event-item">
          <EventCard {...cardOptions} event={event} />
        </li>
      ))}
    </ul>
  );
}
