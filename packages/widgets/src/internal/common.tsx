import type { AnchorHTMLAttributes, MouseEvent, ReactElement, ReactNode } from "react";
import type { Theme } from "../types.js";

/** Props every widget accepts. */
export interface WidgetBaseProps {
  /** Extra class on the widget's root element (which always has `gf-root`). */
  className?: string;
  /**
   * Colour theme. Omit it to inherit the theme of an enclosing `.gf-root[data-theme]`
   * (light when there is none); `auto` follows `prefers-color-scheme`.
   */
  theme?: Theme;
  /** Shows the loading state instead of the data. */
  loading?: boolean;
  /** Shows the error state: a message, an `Error` (its message is shown) or `true`. */
  error?: ReactNode | Error;
  /** Shown when there is no data. */
  emptyMessage?: ReactNode;
  /** Text of the loading state; defaults to "Loading...". */
  loadingMessage?: ReactNode;
  /** When given, the error state shows a "Try again" button calling it. */
  onRetry?: () => void;
}

/** Props given to `renderLink`: spread them onto your router's link (`<Link to={href} />`). */
export interface LinkRenderProps extends AnchorHTMLAttributes<HTMLAnchorElement> {
  href: string;
  children?: ReactNode;
}

/**
 * Renders a link. The default renders `<a {...props} />`; with Remix or React Router use
 * `renderLink={({ href, ...rest }) => <Link to={href} {...rest} />}`.
 */
export type RenderLink = (props: LinkRenderProps) => ReactElement;

export const defaultRenderLink: RenderLink = (props) => <a {...props} />;

/**
 * A `renderLink` for links that leave the page the widget is on, e.g. a partner's page linking
 * racer names to the game's racer pages (`racerHref`): each opens in a new tab, and says so to
 * screen readers. It renders every link the widget draws, so use it where the other links
 * (`categoryHref`, `sortHref`, ...) are not set or should open a new tab too.
 */
export const newTabLink: RenderLink = ({ children, ...props }) => (
  <a {...props} target="_blank" rel="noopener">
    {children} <span className="gf-sr-only">(opens in a new tab)</span>
  </a>
);

export function cx(...names: (string | false | null | undefined)[]): string {
  return names.filter(Boolean).join(" ");
}

/** Root attributes: the `gf-root` scope class and the optional theme. */
export function rootProps(
  name: string,
  props: Pick<WidgetBaseProps, "className" | "theme">,
): { className: string; "data-theme"?: Theme } {
  return {
    className: cx("gf-root", name, props.className),
    ...(props.theme ? { "data-theme": props.theme } : {}),
  };
}

export function hasError(error: WidgetBaseProps["error"]): boolean {
  return error != null && error !== false && error !== "";
}

export function errorText(error: WidgetBaseProps["error"]): ReactNode {
  if (error === true) return "Something went wrong.";
  if (error instanceof Error) return error.message || "Something went wrong.";
  return error as ReactNode;
}

/** True for clicks that should open a link in a new tab/window (leave them to the browser). */
export function isModifiedClick(event: MouseEvent): boolean {
  return event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey;
}

/** The loading, error or empty message. */
export function Status(props: {
  kind: "loading" | "error" | "empty";
  children: ReactNode;
  onRetry?: (() => void) | undefined;
}): ReactElement {
  const { kind, children, onRetry } = props;
  if (kind === "loading") {
    return (
      <div className="gf-status gf-status--loading" role="status">
        <span className="gf-spinner" aria-hidden="true" />
        <span>{children}</span>
      </div>
    );
  }
  if (kind === "error") {
    return (
      <div className="gf-status gf-status--error" role="alert">
        <span>{children}</span>
        {onRetry ? (
          <button type="button" className="gf-button gf-button--secondary" onClick={onRetry}>
            Try again
          </button>
        ) : null}
      </div>
    );
  }
  return <div className="gf-status gf-status--empty">{children}</div>;
}

/** Which state to show, in priority order: error, loading, empty, data. */
export function viewState(
  props: Pick<WidgetBaseProps, "error" | "loading">,
  isEmpty: boolean,
): "error" | "loading" | "empty" | "data" {
  if (hasError(props.error)) return "error";
  if (props.loading) return "loading";
  return isEmpty ? "empty" : "data";
}

/** Renders the non-data states of a widget. */
export function StateMessage(props: {
  state: "error" | "loading" | "empty";
  base: WidgetBaseProps;
  defaultEmpty: ReactNode;
}): ReactElement {
  const { state, base, defaultEmpty } = props;
  if (state === "error") {
    return (
      <Status kind="error" onRetry={base.onRetry}>
        {errorText(base.error)}
      </Status>
    );
  }
  if (state === "loading") {
    return <Status kind="loading">{base.loadingMessage ?? "Loading..."}</Status>;
  }
  return <Status kind="empty">{base.emptyMessage ?? defaultEmpty}</Status>;
}

/**
 * The horizontally scrolling box around a table (small screens). It is a labelled region and
 * focusable so keyboard users can scroll it.
 */
export function TableScroll(props: { labelledBy: string; children: ReactNode }): ReactElement {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a div region is the scrollable-table pattern
    // biome-ignore lint/a11y/noNoninteractiveTabindex: scrollable regions must be focusable
    <div className="gf-table-scroll" role="region" aria-labelledby={props.labelledBy} tabIndex={0}>
      {props.children}
    </div>
  );
}
