import {
  Fragment,
  type KeyboardEvent,
  type ReactElement,
  type SyntheticEvent,
  useEffect,
  useRef,
  useState,
} from "react";
import { CATEGORIES, type Category } from "../types.js";
import { cx, isModifiedClick, type RenderLink } from "./common.js";

export interface CategoryTabsProps {
  selectedIndex: number;
  /** Prefix of the tabs' ids (`${id}-tab-${i}`) and of the panel's (`${id}-panel`). */
  id: string;
  /** Tabs as links (work without JavaScript); else buttons. */
  categoryHref?: (category: Category) => string;
  renderLink: RenderLink;
  onSelect: (category: Category, event: SyntheticEvent) => void;
}

/**
 * The racer categories as an ARIA tab list: one tab stop, arrow keys, Home and End (WAI-ARIA
 * tabs pattern). Button tabs follow focus; link tabs wait for Enter, since a link press navigates.
 */
export function CategoryTabs(props: CategoryTabsProps): ReactElement {
  const { selectedIndex, id, categoryHref, renderLink, onSelect } = props;
  const listRef = useRef<HTMLDivElement>(null);
  const [focusIndex, setFocusIndex] = useState(selectedIndex);
  useEffect(() => setFocusIndex(selectedIndex), [selectedIndex]);
  // A narrow row of tabs scrolls: bring the selected one into sight (sideways only, so the page
  // itself never jumps), e.g. "17-18 Women" opened by a link on a phone.
  useEffect(() => {
    const list = listRef.current;
    const tab = list?.querySelectorAll<HTMLElement>('[role="tab"]')[selectedIndex];
    if (!list || !tab || list.scrollWidth <= list.clientWidth) return;
    const left = tab.offsetLeft - list.offsetLeft;
    if (left < list.scrollLeft || left + tab.offsetWidth > list.scrollLeft + list.clientWidth) {
      list.scrollLeft = left - (list.clientWidth - tab.offsetWidth) / 2;
    }
  }, [selectedIndex]);

  const onKeyDown = (event: KeyboardEvent<HTMLElement>, index: number) => {
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
    listRef.current?.querySelectorAll<HTMLElement>('[role="tab"]')[next]?.focus();
    if (!categoryHref) onSelect(CATEGORIES[next]!, event);
  };

  return (
    <div
      className="gf-tabs"
      role="tablist"
      aria-label="Racer category"
      ref={listRef}
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
          id: `${id}-tab-${i}`,
          className: cx("gf-tab", selected && "gf-tab--selected"),
          "aria-selected": selected,
          "aria-controls": selected ? `${id}-panel` : undefined,
          tabIndex: i === focusIndex ? 0 : -1,
          onKeyDown: (event: KeyboardEvent<HTMLElement>) => onKeyDown(event, i),
          onFocus: () => setFocusIndex(i),
        } as const;
        return categoryHref ? (
          <Fragment key={c}>
            {renderLink({
              ...common,
              href: categoryHref(c),
              children: c,
              onClick: (event) => {
                if (!isModifiedClick(event)) onSelect(c, event);
              },
            })}
          </Fragment>
        ) : (
          <button
            key={c}
            type="button"
            {...common}
            onClick={(event) => {
              if (!selected) onSelect(c, event);
            }}
          >
            {c}
          </button>
        );
      })}
    </div>
  );
}
