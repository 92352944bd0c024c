export * from "./admin.js";
export * from "./auth.js";
export * from "./embed.js";
export * from "./game.js";
export * from "./scoring.js";
