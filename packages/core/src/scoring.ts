/** Points per race result (spec section 1 and 9). */
export const POINTS = {
  first: 100,
  second: 80,
  third: 65,
  topTen: 50,
  finisher: 10,
  none: 0,
} as const;

export const NON_FINISH = ["DNF", "DNS", "DSQ"] as const;
export type NonFinish = (typeof NON_FINISH)[number];

/** A race result: a finishing place (1-based) or a non-finish status. */
export type RaceResult = { position: number } | { status: NonFinish };

/** A points table: the spec's `POINTS`, or a competition's own (its rules' `points`). */
export type PointsTable = { readonly [K in keyof typeof POINTS]: number };

/** Points for one place (1-based finishing position), or null/a status for no finish. */
export function pointsForPosition(
  position: number | null | undefined,
  table: PointsTable = POINTS,
): number {
  if (position == null || !Number.isInteger(position) || position < 1) return table.none;
  if (position === 1) return table.first;
  if (position === 2) return table.second;
  if (position === 3) return table.third;
  if (position <= 10) return table.topTen;
  return table.finisher;
}

export function pointsForResult(
  result: RaceResult | null | undefined,
  table: PointsTable = POINTS,
): number {
  if (!result || !("position" in result)) return table.none;
  return pointsForPosition(result.position, table);
}

/**
 * A team's event score: the sum of its racers' points; a racer with no result scores none. A
 * captain (a racer of the team, named when the competition's rules have captains) counts twice
 * (docs/decisions/0168).
 */
export function teamScore(
  racerIds: readonly number[],
  results: ReadonlyMap<number, RaceResult>,
  table: PointsTable = POINTS,
  captainId: number | null = null,
): number {
  const sum = racerIds.reduce((total, id) => total + pointsForResult(results.get(id), table), 0);
  return sum + captainBonus(racerIds, captainId, (id) => pointsForResult(results.get(id), table));
}

/** What a captain adds to a team's score: their points once more; none without a captain on it. */
export function captainBonus(
  racerIds: readonly number[],
  captainId: number | null | undefined,
  pointsOf: (racerId: number) => number,
): number {
  return captainId != null && racerIds.includes(captainId) ? pointsOf(captainId) : 0;
}

export type MemberStatus = "accepted" | "pending";

/** League score: the average of accepted members' scores; 0 with none. */
export function leagueScore(
  members: readonly { score: number | null | undefined; status: MemberStatus | string }[],
): number {
  const accepted = members.filter((m) => m.status === "accepted");
  if (accepted.length === 0) return 0;
  const total = accepted.reduce((sum, m) => sum + (m.score ?? 0), 0);
  // Scale first, divide once: for whole-point scores this is exact half-up to cents, the same
  // as the settlement's SQL round(avg(score), 2) (dividing first drifts on exact halves).
  return Math.round((total * 100) / accepted.length) / 100;
}

/**
 * Competition ranking ("1, 1, 3"): equal points share a rank; the next rank skips.
 * `items` must already be sorted by points, highest first.
 */
export function competitionRanks(points: readonly number[]): number[] {
  const ranks: number[] = [];
  for (let i = 0; i < points.length; i++) {
    ranks.push(i > 0 && points[i] === points[i - 1] ? ranks[i - 1]! : i + 1);
  }
  return ranks;
}
