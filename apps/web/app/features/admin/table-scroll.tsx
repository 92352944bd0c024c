import type { ReactNode } from "react";

/** A wide table that scrolls sideways on a phone, reachable and scrollable by keyboard. */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take keyboard focus (WCAG 2.1.1)
    <section className="admin-table-wrap" aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}
