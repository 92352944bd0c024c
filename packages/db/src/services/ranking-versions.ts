import type { DbOrTx } from "../client.js";
import { rankingVersions } from "../schema/index.js";

/** The parts of the rankings that change together; each has its own version. */
export const RANKING_SCOPES = ["players", "leagues"] as const;
export type RankingScope = (typeof RANKING_SCOPES)[number];
export type RankingVersions = Record<RankingScope, number>;

/**
 * The current version of each ranking scope: one primary-key read of a two-row table. Read it
 * from the same database the ranking is read from (a replica's version never runs ahead of the
 * replica's rows), before the ranking: data read after a version is never older than it.
 */
export async function getRankingVersions(db: DbOrTx): Promise<RankingVersions> {
  const rows = await db
    .select({ scope: rankingVersions.scope, version: rankingVersions.version })
    .from(rankingVersions);
  const out: RankingVersions = { players: 0, leagues: 0 };
  for (const r of rows) {
    if (r.scope === "players" || r.scope === "leagues") out[r.scope] = Number(r.version);
  }
  return out;
}
