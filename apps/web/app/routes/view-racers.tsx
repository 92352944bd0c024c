import { CATEGORIES, type Category, categoryFromSlug, categoryToSlug } from "@game/core/categories";
import { type RacerSort, RacerTable } from "@game/widgets/racer-table";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useLocation } from "@remix-run/react";
import { getCurrentGame } from "~/features/game/game.server";
import { GameBackdrop, toBackdropGame } from "~/features/game/game-backdrop";
import { racerList } from "~/features/profiles/racer-list.server";

export const meta: MetaFunction = () => [{ title: "View Racers · Gravity Fantasy" }];

const SORT_KEYS = ["rank", "name", "price"] as const;

/** `?sort=price&dir=desc` (shareable, works without JavaScript); rank ascending by default. */
function readSort(params: URLSearchParams): RacerSort {
  const key = SORT_KEYS.find((k) => k === params.get("sort")) ?? "rank";
  const direction = params.get("dir") === "desc" ? "desc" : "asc";
  return { key, direction };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const category: Category = categoryFromSlug(params.get("category") ?? "") ?? CATEGORIES[0];
  const game = await getCurrentGame(request, context);
  const { rows, previous } = game
    ? await racerList(context, game.id, category)
    : { rows: [], previous: new Map<number, number>() };
  return {
    game: toBackdropGame(game),
    category,
    sort: readSort(params),
    racers: rows.map((r) => ({
      id: r.id,
      category: r.category,
      firstName: r.firstName,
      lastName: r.lastName,
      picture: r.picture,
      rank2024: r.rank2024,
      price: r.price,
      previousPrice: previous.get(r.id) ?? null,
      pickedByPercent: r.pickedByPercent,
    })),
  };
}

export default function ViewRacers() {
  const { game, category, sort, racers } = useLoaderData<typeof loader>();
  const location = useLocation();

  // Links keep the other parameters (the game, the sort) so a tab or a sort can be shared.
  const hrefWith = (changes: Record<string, string | null>) => {
    const params = new URLSearchParams(location.search);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null) params.delete(k);
      else params.set(k, v);
    }
    return `?${params.toString()}`;
  };
  const isDefaultSort = (s: RacerSort) => s.key === "rank" && s.direction === "asc";

  return (
    <GameBackdrop game={game} title="View Racers">
      <div className="panel">
        <p className="panel-lead">
          Every racer you can pick{game ? ` for ${game.name}` : ""}, by 2024 ranking. Prices are in
          fake dollars; your team of six must fit in the budget.
        </p>
        <RacerTable
          racers={racers}
          category={category}
          categoryHref={(c) => hrefWith({ category: categoryToSlug(c) })}
          sort={sort}
          sortHref={(s) =>
            hrefWith(
              isDefaultSort(s) ? { sort: null, dir: null } : { sort: s.key, dir: s.direction },
            )
          }
          racerHref={(r) => `/racers/${r.id}`}
          // Tabs and sorts stay where the reader is; a racer's page opens at its top.
          renderLink={({ href, ...rest }) => (
            <Link to={href} preventScrollReset={href.startsWith("?")} {...rest} />
          )}
          // From round 2 of a series: each price against the round before (decision 0100).
          showPriceChange={racers.some((r) => r.previousPrice !== null)}
          // The share of this round's teams holding each racer, once counted (decision 0160).
          showPickedBy={racers.some((r) => r.pickedByPercent !== null)}
          emptyMessage={
            game ? `No ${category} racers are listed for ${game.name} yet.` : "No events yet."
          }
        />
      </div>
    </GameBackdrop>
  );
}
