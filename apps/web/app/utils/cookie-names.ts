/**
 * The names of the cookies the server reads before Remix does (the ranking page cache renders a
 * signed-in player's page and caches a visitor's per remembered game), written once for both.
 */
/** The session cookie (app/utils/session.server.ts). */
export const SESSION_COOKIE = "gf_session";
/** The game a player chose last (app/features/game/game.server.ts). */
export const GAME_COOKIE = "gf_game";
