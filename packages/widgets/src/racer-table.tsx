import { type ReactElement, type ReactNode, type SyntheticEvent, useId, useState } from "react";
import { formatPrice, racerName } from "./format.js";
import { ActionButton, type RacerAction } from "./internal/action-button.js";
import { CategoryTabs } from "./internal/category-tabs.js";
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

export type { RacerAction } from "./internal/action-button.js";
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

/** A sortable column header: a link with `sortHref` (works without JavaScript), else a button. */
function SortHeader(props: {
  sortKey: RacerSortKey;
  label: string;
  className?: string;
  sort: RacerSort;
  sortHref?: (sort: RacerSort) => string;
  renderLink: RenderLink;
  onSort: (sort: RacerSort, event: SyntheticEvent) => void;
}): ReactElement {
  const { sortKey, label, sort, sortHref, onSort } = props;
  const active = sort.key === sortKey;
  const next: RacerSort = {
    key: sortKey,
    direction: active && sort.direction === "asc" ? "desc" : "asc",
  };
  const children = (
    <>
      {label}
      <span className="gf-sort-icon" aria-hidden="true">
        {active ? (sort.direction === "asc" ? "▲" : "▼") : "↕"}
      </span>
    </>
  );
  return (
    <th
      scope="col"
      className={props.className}
      aria-sort={active ? (sort.direction === "asc" ? "ascending" : "descending") : undefined}
    >
      {sortHref ? (
        props.renderLink({
          href: sortHref(next),
          className: "gf-sort",
          onClick: (event) => {
            if (!isModifiedClick(event)) onSort(next, event);
          },
          children,
        })
      ) : (
        <button type="button" className="gf-sort" onClick={(event) => onSort(next, event)}>
          {children}
        </button>
      )}
    </th>
  );
}

/** One racer's row: the cells of the columns shown, the name as a link, button or text. */
function RacerRow(props: {
  racer: Racer;
  table: RacerTableProps;
  show: (column: RacerColumn) => boolean;
  renderLink: RenderLink;
  tipId: string;
}): ReactElement {
  const { racer, table, show, renderLink } = props;
  const { action, racerHref, onRacerNameClick } = table;
  const name = racerName(racer);
  return (
    <tr>
      {show("portrait") ? (
        <td className="gf-col-portrait">
          <Portrait
            picture={racer.picture}
            racer={racer}
            imageBase={table.imageBase}
            placeholderSrc={table.placeholderSrc}
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
          <button type="button" className="gf-linklike" onClick={() => onRacerNameClick(racer)}>
            {name}
          </button>
        ) : (
          name
        )}
      </th>
      {show("price") ? <td className="gf-num">{formatPrice(racer.price)}</td> : null}
      {table.showPriceChange ? (
        <td className="gf-num gf-col-change">{priceChangeText(racer)}</td>
      ) : null}
      {table.showPickedBy ? <td className="gf-num">{pickedByText(racer)}</td> : null}
      {action ? (
        <td className="gf-col-action">
          <ActionButton racer={racer} action={action} tipId={props.tipId} />
        </td>
      ) : null}
    </tr>
  );
}

/** Racers by category: tabs, portrait, #rank, name, price, sortable, optional action column. */
export function RacerTable(props: RacerTableProps): ReactElement {
  const {
    racers,
    onCategoryChange,
    showTabs = true,
    onSortChange,
    action,
    hideCaption,
    hideColumns = [],
    showPriceChange = false,
    showPickedBy = false,
  } = props;
  const renderLink = props.renderLink ?? defaultRenderLink;
  const id = useId();

  const [ownCategory, setOwnCategory] = useState<Category>(
    props.defaultCategory ?? DEFAULT_CATEGORY,
  );
  const category = props.category ?? ownCategory;
  const selectedIndex = Math.max(0, CATEGORIES.indexOf(category));
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
  const captionId = `${id}-caption`;
  const header = (key: RacerSortKey, label: string, className?: string) => (
    <SortHeader
      sortKey={key}
      label={label}
      className={className}
      sort={sort}
      sortHref={props.sortHref}
      renderLink={renderLink}
      onSort={changeSort}
    />
  );

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
            {show("rank") ? header("rank", "Rank", "gf-col-rank") : null}
            {header("name", "Name")}
            {show("price") ? header("price", "Price", "gf-num") : null}
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
            visible.map((racer) => (
              <RacerRow
                key={racer.id}
                racer={racer}
                table={props}
                show={show}
                renderLink={renderLink}
                tipId={`${id}-tip-${racer.id}`}
              />
            ))
          )}
        </tbody>
      </table>
    </TableScroll>
  );

  if (!showTabs) return <div {...rootProps("gf-racers", props)}>{table}</div>;

  return (
    <div {...rootProps("gf-racers", props)}>
      <CategoryTabs
        selectedIndex={selectedIndex}
        id={id}
        categoryHref={props.categoryHref}
        renderLink={renderLink}
        onSelect={selectCategory}
      />
      <div
        className="gf-tabpanel"
        role="tabpanel"
        id={`${id}-panel`}
        aria-labelledby={`${id}-tab-${selectedIndex}`}
      >
        {table}
      </div>
    </div>
  );
}
