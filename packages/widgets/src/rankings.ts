/** Ranking helpers: pure, no React (also in `@game/widgets/helpers`). */
import type { PlayerRanking } from "./types.js";

/** Shown for a ranking row without a username. */
export const ANONYMOUS = "Anonymous";

/** Same player? By `id` when both rows have one, else by username. */
export function samePlayer(a: PlayerRanking, b: PlayerRanking): boolean {
  if (a.id != null && b.id != null) return String(a.id) === String(b.id);
  return a.username != null && a.username === b.username;
}
