import {
  Fragment,
  type KeyboardEvent,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
  type SyntheticEvent,
  useEffect,
  useId,
  useRef,
  useState,
} from "react";
import { formatPrice, racerName } from "./format.js";
import {
  cx,
  defaultRenderLink,
  isModifiedClick,
  type RenderLink,
  rootProps,
  StateMessage,
  TableScroll,
  viewState,
  type WidgetBaseProps,
} from "./internal/common.js";
import { Portrait } from "./internal/portrait.js";
import {
  DEFAULT_CATEGORY,
  DEFAULT_RACER_SORT,
  pickedByText,
  priceChangeText,
  type RacerSort,
  type RacerSortKey,
  sortRacers,
} from "./racers.js";
import { CATEGORIES, type Category, type Racer } from "./types.js";

export type { LinkRenderProps, RenderLink, WidgetBaseProps } from "./internal/common.js";
export { newTabLink } from "./internal/common.js";
// Pure helpers, also in `@game/widgets/helpers` (no "use client" there: callable on servers).
export {
  DEFAULT_CATEGORY,
  DEFAULT_RACER_SORT,
  pickedByText,
  priceChangeText,
  type RacerSort,
  type RacerSortKey,
  type SortDirection,
  sortRacers,
} from "./racers.js";
export {
  CATEGORIES,
  CATEGORY_SLUGS,
  type Category,
  type CategorySlug,
  type Racer,
  type Theme,
} from "./types.js";

export type RacerColumn = "portrait" | "rank" | "price";

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

export interface RacerTableProps extends WidgetBaseProps {
  /** Racers to list. When tabs are shown, only the selected category's racers are listed. */
  racers: readonly Racer[];
  /** Selected category (controlled). */
  category?: Category;
  /** Initial category when uncontrolled; defaults to Pro Men. */
  defaultCategory?: Category;
  /**
   * Called when a tab is chosen (click, or arrow keys on button tabs). With `categoryHref` the
   * link still navigates unless you call `event.preventDefault()`.
   */
  onCategoryChange?: (category: Category, event: SyntheticEvent) => void;
  /** Renders the tabs as links (works without JavaScript): `(c) => `?category=${slug}``. */
  categoryHref?: (category: Category) => string;
  /** Shows the category tabs; defaults to true. */
  showTabs?: boolean;
  /** Sort (controlled). */
  sort?: RacerSort;
  /** Initial sort when uncontrolled; defaults to rank ascending, unranked last. */
  defaultSort?: RacerSort;
  onSortChange?: (sort: RacerSort, event: SyntheticEvent) => void;
  /** Renders the sortable headers as links (works without JavaScript). */
  sortHref?: (sort: RacerSort) => string;
  /** Adds a button column. */
  action?: RacerAction;
  /** Makes racer names buttons, e.g. to open a details modal. */
  onRacerNameClick?: (racer: Racer) => void;
  /** Makes racer names links. */
  racerHref?: (racer: Racer) => string;
  /** Prefix of portrait URLs (`${imageBase}/img/racer_portrait/${picture}`). */
  imageBase?: string;
  /** Image shown when a racer has no portrait; defaults to the racer's generated avatar. */
  placeholderSrc?: string;
  /** Table caption; defaults to "<category> racers" (or "Racers" without tabs). */
  caption?: ReactNode;
  /** Keeps the caption for screen readers only. */
  hideCaption?: boolean;
  /** Columns to leave out. */
  hideColumns?: readonly RacerColumn[];
  /**
   * Adds a "Since last round" column after the price: the change from `previousPrice`
   * ("+$12,000", "-$5,000", "No change", or "New" without a previous price).
   */
  showPriceChange?: boolean;
  /** Adds a "Picked by" column: the share of the round's teams holding the racer. */
  showPickedBy?: boolean;
  /** Renders links through the host router; defaults to `<a>`. */
  renderLink?: RenderLink;
}

function ActionButton(props: { racer: Racer; action: RacerAction; tipId: string }): ReactElement {
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

/** Racers by category: tabs, portrait, #rank, name, price, sortable, optional action column. */
export function RacerTable(props: RacerTableProps): ReactElement {
  const {
    racers,
    onCategoryChange,
    categoryHref,
    showTabs = true,
    onSortChange,
    sortHref,
    action,
    onRacerNameClick,
    racerHref,
    imageBase,
    placeholderSrc,
    hideCaption,
    hideColumns = [],
    showPriceChange = false,
    showPickedBy = false,
  } = props;
  const renderLink = props.renderLink ?? defaultRenderLink;
  const id = useId();
  const tablistRef = useRef<HTMLDivElement>(null);

  const [ownCategory, setOwnCategory] = useState<Category>(
    props.defaultCategory ?? DEFAULT_CATEGORY,
  );
  const category = props.category ?? ownCategory;
  const selectedIndex = Math.max(0, CATEGORIES.indexOf(category));
  const [focusIndex, setFocusIndex] = useState(selectedIndex);
  useEffect(() => setFocusIndex(selectedIndex), [selectedIndex]);
  // A narrow row of tabs scrolls: bring the selected one into sight (sideways only, so the page
  // itself never jumps), e.g. "17-18 Women" opened by a link on a phone.
  useEffect(() => {
    const list = tablistRef.current;
    const tab = list?.querySelectorAll<HTMLElement>('[role="tab"]')[selectedIndex];
    if (!list || !tab || list.scrollWidth <= list.clientWidth) return;
    const left = tab.offsetLeft - list.offsetLeft;
    if (left < list.scrollLeft || left + tab.offsetWidth > list.scrollLeft + list.clientWidth) {
      list.scrollLeft = left - (list.clientWidth - tab.offsetWidth) / 2;
    }
  }, [selectedIndex]);

  const [ownSort, setOwnSort] = useState<RacerSort>(props.defaultSort ?? DEFAULT_RACER_SORT);
  const sort = props.sort ?? ownSort;

  const selectCategory = (next: Category, event: SyntheticEvent) => {
    onCategoryChange?.(next, event);
    if (props.category === undefined) setOwnCategory(next);
  };
  const changeSort = (next: RacerSort, event: SyntheticEvent) => {
    onSortChange?.(next, event);
    if (props.sort === undefined) setOwnSort(next);
  };

  const onTabKeyDown = (event: KeyboardEvent<HTMLElement>, index: number) => {
    const last = CATEGORIES.length - 1;
    let next: number;
    if (event.key === "ArrowRight") next = index === last ? 0 : index + 1;
    else if (event.key === "ArrowLeft") next = index === 0 ? last : index - 1;
    else if (event.key === "Home") next = 0;
    else if (event.key === "End") next = last;
    else {
      if (event.key === " " && categoryHref) {
        event.preventDefault();
        event.currentTarget.click();
      }
      return;
    }
    event.preventDefault();
    setFocusIndex(next);
    tablistRef.current?.querySelectorAll<HTMLElement>('[role="tab"]')[next]?.focus();
    // Button tabs follow focus; link tabs wait for Enter (a link press navigates).
    if (!categoryHref) selectCategory(CATEGORIES[next]!, event);
  };

  const visible = sortRacers(
    showTabs ? racers.filter((r) => r.category === category) : racers,
    sort,
  );
  const state = viewState(props, visible.length === 0);
  const show = (column: RacerColumn) => !hideColumns.includes(column);
  const columnCount =
    1 +
    Number(show("portrait")) +
    Number(show("rank")) +
    Number(show("price")) +
    Number(showPriceChange) +
    Number(showPickedBy) +
    Number(!!action);
  const tabId = (i: number) => `${id}-tab-${i}`;
  const panelId = `${id}-panel`;
  const captionId = `${id}-caption`;

  const sortHeader = (key: RacerSortKey, label: string, className?: string) => {
    const active = sort.key === key;
    const next: RacerSort = {
      key,
      direction: active && sort.direction === "asc" ? "desc" : "asc",
    };
    const icon = (
      <span className="gf-sort-icon" aria-hidden="true">
        {active ? (sort.direction === "asc" ? "▲" : "▼") : "↕"}
      </span>
    );
    return (
      <th
        scope="col"
        className={className}
        aria-sort={active ? (sort.direction === "asc" ? "ascending" : "descending") : undefined}
      >
        {sortHref ? (
          renderLink({
            href: sortHref(next),
            className: "gf-sort",
            onClick: (event) => {
              if (!isModifiedClick(event)) changeSort(next, event);
            },
            children: (
              <>
                {label}
                {icon}
              </>
            ),
          })
        ) : (
          <button type="button" className="gf-sort" onClick={(event) => changeSort(next, event)}>
            {label}
            {icon}
          </button>
        )}
      </th>
    );
  };

  const table = (
    <TableScroll labelledBy={captionId}>
      <table className="gf-table gf-racer-table" aria-busy={state === "loading" || undefined}>
        <caption id={captionId} className={cx("gf-caption", hideCaption && "gf-sr-only")}>
          {props.caption ?? (showTabs ? `${category} racers` : "Racers")}
        </caption>
        <thead>
          <tr>
            {show("portrait") ? (
              <th scope="col" className="gf-col-portrait">
                <span className="gf-sr-only">Portrait</span>
              </th>
            ) : null}
            {show("rank") ? sortHeader("rank", "Rank", "gf-col-rank") : null}
            {sortHeader("name", "Name")}
            {show("price") ? sortHeader("price", "Price", "gf-num") : null}
            {showPriceChange ? (
              <th scope="col" className="gf-num gf-col-change">
                Since last round
              </th>
            ) : null}
            {showPickedBy ? (
              <th scope="col" className="gf-num">
                Picked by
              </th>
            ) : null}
            {action ? (
              <th scope="col" className="gf-col-action">
                <span className="gf-sr-only">{action.header ?? "Action"}</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {state !== "data" ? (
            <tr>
              <td colSpan={columnCount}>
                <StateMessage
                  state={state}
                  base={props}
                  defaultEmpty="No racers in this category."
                />
              </td>
            </tr>
          ) : (
            visible.map((racer) => {
              const name = racerName(racer);
              return (
                <tr key={racer.id}>
                  {show("portrait") ? (
                    <td className="gf-col-portrait">
                      <Portrait
                        picture={racer.picture}
                        racer={racer}
                        imageBase={imageBase}
                        placeholderSrc={placeholderSrc}
                      />
                    </td>
                  ) : null}
                  {show("rank") ? (
                    <td className="gf-col-rank">
                      {racer.rank2024 > 0 ? (
                        `#${racer.rank2024}`
                      ) : (
                        <>
                          <span aria-hidden="true">–</span>
                          <span className="gf-sr-only">Unranked</span>
                        </>
                      )}
                    </td>
                  ) : null}
                  <th scope="row" className="gf-col-name">
                    {racerHref ? (
                      renderLink({ href: racerHref(racer), className: "gf-link", children: name })
                    ) : onRacerNameClick ? (
                      <button
                        type="button"
                        className="gf-linklike"
                        onClick={() => onRacerNameClick(racer)}
                      >
                        {name}
                      </button>
                    ) : (
                      name
                    )}
                  </th>
                  {show("price") ? <td className="gf-num">{formatPrice(racer.price)}</td> : null}
                  {showPriceChange ? (
                    <td className="gf-num gf-col-change">{priceChangeText(racer)}</td>
                  ) : null}
                  {showPickedBy ? <td className="gf-num">{pickedByText(racer)}</td> : null}
                  {action ? (
                    <td className="gf-col-action">
                      <ActionButton racer={racer} action={action} tipId={`${id}-tip-${racer.id}`} />
                    </td>
                  ) : null}
                </tr>
              );
            })
          )}
        </tbody>
      </table>
    </TableScroll>
  );

  if (!showTabs) return <div {...rootProps("gf-racers", props)}>{table}</div>;

  return (
    <div {...rootProps("gf-racers", props)}>
      <div
        className="gf-tabs"
        role="tablist"
        aria-label="Racer category"
        ref={tablistRef}
        onBlur={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) {
            setFocusIndex(selectedIndex);
          }
        }}
      >
        {CATEGORIES.map((c, i) => {
          const selected = i === selectedIndex;
          const common = {
            role: "tab",
            id: tabId(i),
            className: cx("gf-tab", selected && "gf-tab--selected"),
            "aria-selected": selected,
            "aria-controls": selected ? panelId : undefined,
            tabIndex: i === focusIndex ? 0 : -1,
            onKeyDown: (event: KeyboardEvent<HTMLElement>) => onTabKeyDown(event, i),
            onFocus: () => setFocusIndex(i),
          } as const;
          return categoryHref ? (
            <Fragment key={c}>
              {renderLink({
                ...common,
                href: categoryHref(c),
                children: c,
                onClick: (event) => {
                  if (!isModifiedClick(event)) selectCategory(c, event);
                },
              })}
            </Fragment>
          ) : (
            <button
              key={c}
              type="button"
              {...common}
              onClick={(event) => {
                if (!selected) selectCategory(c, event);
              }}
            >
              {c}
            </button>
          );
        })}
      </div>
      <div
        className="gf-tabpanel"
        role="tabpanel"
        id={panelId}
        aria-labelledby={tabId(selectedIndex)}
      >
        {table}
      </div>
    </div>
  );
}
