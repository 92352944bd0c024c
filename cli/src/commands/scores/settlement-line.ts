import type { SettlementSummary } from "@game/db";

/** 1,000,000 */
export const thousands = (v: number) => v.toLocaleString("en-US");

/** One line saying what a settlement did. */
export function settlementLine(s: SettlementSummary): string {
  const n = thousands;
  return `Scored event ${s.eventId}${s.provisional ? " (provisional)" : ""}: ${n(s.teams)} teams, ${n(s.rankedPlayers)} players ranked, ${n(s.leagues)} leagues, in ${(s.ms / 1000).toFixed(1)} s${s.frozeNow ? " (teams frozen now)" : ""}.`;
}
