import type { ReactNode } from "react";
import { TableScroll } from "./table-scroll";

/** A column heading; `num` right-aligns a numeric column. */
export type AdminColumn = string | { label: string; num: true };

/** Marks a numeric column. */
export const num = (label: string): AdminColumn => ({ label, num: true });

/**
 * The dashboard's data table: a labelled, keyboard-scrollable region with one header row.
 * `children` draws each row (a `<tr>` with its key).
 */
export function AdminTable<T>(props: {
  label: string;
  caption?: ReactNode;
  /** Keeps the caption for screen readers only. */
  hideCaption?: boolean;
  columns: readonly AdminColumn[];
  rows: readonly T[];
  children: (row: T) => ReactNode;
}) {
  return (
    <TableScroll label={props.label}>
      <table className="table admin-table">
        {props.caption ? (
          <caption className={props.hideCaption ? "visually-hidden" : undefined}>
            {props.caption}
          </caption>
        ) : null}
        <thead>
          <tr>
            {props.columns.map((c) =>
              typeof c === "string" ? (
                <th key={c} scope="col">
                  {c}
                </th>
              ) : (
                <th key={c.label} scope="col" className="num">
                  {c.label}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>{props.rows.map(props.children)}</tbody>
      </table>
    </TableScroll>
  );
}
