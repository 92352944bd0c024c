export * from "./admin.js";
export * from "./auth.js";
export * from "./embed.js";
export * from "./game.js";
export * from "./partner-stats.js";
export * from "./ranking-versions.js";
export * from "./reminders.js";
export * from "./scoring.js";
