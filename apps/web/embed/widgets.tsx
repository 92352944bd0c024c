/**
 * `/embed/v1/widgets.js`: the script-tag embed for partner sites. One script, then any of
 *
 *   <gf-racer-table event="5" category="pro-women"></gf-racer-table>
 *   <gf-player-rankings event="5"></gf-player-rankings>
 *   <gf-league-rankings></gf-league-rankings>
 *   <gf-team-grid username="alice" event="5"></gf-team-grid>
 *   <gf-team-builder event="5" partner="pk_..."></gf-team-builder>
 *
 * Built with Preact's compat layer standing in for React (see build.mjs).
 */
import { createGameClient } from "@game/widgets/client";
import { defineWidget, type EmbedContext } from "./define";
import {
  GfLeagueRankings,
  GfPlayerRankings,
  GfRacerTable,
  GfTeamBuilder,
  GfTeamGrid,
} from "./elements";

/** The game's origin: where this script was loaded from (read while it runs). */
function scriptBase(): string {
  const current = document.currentScript as HTMLScriptElement | null;
  const src =
    current?.src ||
    document.querySelector<HTMLScriptElement>('script[src*="/embed/v1/widgets.js"]')?.src ||
    location.href;
  return new URL(src, location.href).origin;
}

const base = scriptBase();
const ctx: EmbedContext = { base, client: createGameClient({ baseUrl: base }) };
const common = ["theme"];

defineWidget("gf-racer-table", [...common, "event", "category", "hide-tabs"], GfRacerTable, ctx);
defineWidget("gf-player-rankings", [...common, "event", "page"], GfPlayerRankings, ctx);
defineWidget("gf-league-rankings", [...common, "page"], GfLeagueRankings, ctx);
defineWidget("gf-team-grid", [...common, "username", "event"], GfTeamGrid, ctx);
defineWidget("gf-team-builder", [...common, "event", "partner"], GfTeamBuilder, ctx);
