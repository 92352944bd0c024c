import type { Category } from "@game/widgets/client";
import { useRacers } from "@game/widgets/hooks";
import { newTabLink, RacerTable } from "@game/widgets/racer-table";
import { type ReactElement, useEffect, useState } from "react";
import type { WidgetProps } from "../runtime";
import { categoryOf, competitionOf, errorMessage, racerPage, themeOf, useEventId } from "./common";
import { onlyCategoryOf } from "./widget-attributes";

/** `<gf-racer-table event competition category hide-tabs price-change picked-by>` */
export function GfRacerTable({ attrs, ctx }: WidgetProps): ReactElement {
  const event = useEventId(attrs.event, competitionOf(attrs));
  const only = onlyCategoryOf(attrs);
  const racers = useRacers(event.id, only);
  const [category, setCategory] = useState<Category>(categoryOf(attrs.category) ?? "Pro Men");
  useEffect(() => {
    const next = categoryOf(attrs.category);
    if (next) setCategory(next);
  }, [attrs.category]);
  const error = event.error ?? racers.error;
  return (
    <RacerTable
      racers={racers.data?.data ?? []}
      category={category}
      onCategoryChange={(next) => setCategory(next)}
      showTabs={attrs["hide-tabs"] == null}
      // Opt-in "Since last round" column (the API's previousPrice).
      showPriceChange={attrs["price-change"] != null}
      showPickedBy={attrs["picked-by"] != null}
      racerHref={racerPage(ctx)}
      renderLink={newTabLink}
      loading={event.loading || racers.loading}
      error={errorMessage(error)}
      onRetry={event.error ? event.reload : racers.reload}
      theme={themeOf(attrs)}
    />
  );
}
