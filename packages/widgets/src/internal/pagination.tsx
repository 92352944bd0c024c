import type { MouseEvent, ReactElement, ReactNode } from "react";
import { cx, defaultRenderLink, isModifiedClick, type RenderLink } from "./common.js";

/** Paging props shared by the ranking tables. Pages are 1-based. */
export interface PagingProps {
  /** Current page (1-based). */
  page?: number;
  /** Number of pages; the pager is hidden when there is one page or fewer. */
  pageCount?: number;
  /**
   * Called with the page asked for. With `pageHref` too, the links still navigate unless you
   * call `event.preventDefault()`.
   */
  onPageChange?: (page: number, event?: MouseEvent<HTMLElement>) => void;
  /** Renders the pager as links (works without JavaScript), e.g. `(p) => `?page=${p}``. */
  pageHref?: (page: number) => string;
  /** Renders links through the host router; defaults to `<a>`. */
  renderLink?: RenderLink;
}

/** Page numbers to show: first, last, current +-1, with `null` standing for a gap. */
export function pageWindow(page: number, pageCount: number): (number | null)[] {
  if (pageCount <= 7) return Array.from({ length: pageCount }, (_, i) => i + 1);
  const wanted = new Set([1, pageCount, page - 1, page, page + 1]);
  const out: (number | null)[] = [];
  let last = 0;
  for (let p = 1; p <= pageCount; p++) {
    if (!wanted.has(p)) continue;
    if (p - last === 2) out.push(p - 1);
    else if (p - last > 2) out.push(null);
    out.push(p);
    last = p;
  }
  return out;
}

export function Pagination(props: PagingProps & { label: string }): ReactElement | null {
  const { pageHref, onPageChange, label } = props;
  const pageCount = Math.max(0, Math.floor(props.pageCount ?? 0));
  if (pageCount <= 1 || (!pageHref && !onPageChange)) return null;
  const page = Math.min(Math.max(1, Math.floor(props.page ?? 1)), pageCount);
  const renderLink = props.renderLink ?? defaultRenderLink;

  const item = (target: number, content: ReactNode, ariaLabel: string) => {
    if (pageHref) {
      return renderLink({
        href: pageHref(target),
        className: "gf-page",
        "aria-label": ariaLabel,
        children: content,
        onClick: onPageChange
          ? (event) => {
              if (!isModifiedClick(event)) onPageChange(target, event);
            }
          : undefined,
      });
    }
    return (
      <button
        type="button"
        className="gf-page"
        aria-label={ariaLabel}
        onClick={(event) => onPageChange?.(target, event)}
      >
        {content}
      </button>
    );
  };
  const disabled = (content: ReactNode) => (
    <span className="gf-page gf-page--disabled" aria-disabled="true">
      {content}
    </span>
  );

  return (
    <nav className="gf-pagination" aria-label={label}>
      <ul className="gf-pagination-list">
        <li>{page > 1 ? item(page - 1, "Previous", "Previous page") : disabled("Previous")}</li>
        {pageWindow(page, pageCount).map((p, i) => (
          <li key={p ?? `gap-${i}`}>
            {p === null ? (
              <span className="gf-page gf-page--gap" aria-hidden="true">
                …
              </span>
            ) : p === page ? (
              <span className={cx("gf-page", "gf-page--current")} aria-current="page">
                <span className="gf-sr-only">Page </span>
                {p}
              </span>
            ) : (
              item(p, p, `Page ${p}`)
            )}
          </li>
        ))}
        <li>{page < pageCount ? item(page + 1, "Next", "Next page") : disabled("Next")}</li>
      </ul>
      <p className="gf-page-status">
        Page {page} of {pageCount}
      </p>
    </nav>
  );
}
