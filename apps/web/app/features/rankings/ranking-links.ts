/**
 * Addresses of the ranking pages. A page of a competition other than the default one carries
 * `?competition=<slug>` in every link it makes (pages, rounds, "your place"), so following one
 * never falls back to the default competition's table.
 */

export const PLAYERS_RANKING = "/players-ranking";
export const LEAGUES_RANKING = "/leagues-ranking";
export const HALL_OF_FAME = "/hall-of-fame";

/** `?competition=…&event=…&page=…`, each part only when given (page 1 left out). */
export function rankingQuery(opts: {
  competition?: string | null;
  event?: number | null;
  page?: number;
}): string {
  const params = new URLSearchParams();
  if (opts.competition) params.set("competition", opts.competition);
  if (opts.event != null) params.set("event", String(opts.event));
  if (opts.page !== undefined && opts.page > 1) params.set("page", String(opts.page));
  const query = params.toString();
  return `?${query}`;
}

/** The player ranking of a competition (its season table), as other pages link to it. */
export function competitionRankingHref(slug: string): string {
  return `${PLAYERS_RANKING}${rankingQuery({ competition: slug })}`;
}
