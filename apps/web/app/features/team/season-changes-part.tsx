import type { ComponentProps } from "react";
import { deferredPart, onPage, usePart } from "~/utils/deferred-part";
import type { SeasonChanges } from "./season-changes";

/**
 * The team's changes since the last round show from a season's second round on, to players who
 * had a team: fetched apart from the page's code, and in the page before it hydrates when its
 * HTML shows them (docs/decisions/0180).
 */
const seasonChanges = deferredPart(
  () => import("./season-changes").then((m) => m.SeasonChanges),
  () => onPage("season-changes"),
);

/** `SeasonChanges`, once its code is here. */
export function SeasonChangesPart(props: ComponentProps<typeof SeasonChanges>) {
  const Changes = usePart(seasonChanges, true);
  return (
    <div className="season-changes__part" data-part="season-changes">
      {Changes ? <Changes {...props} /> : null}
    </div>
  );
}
