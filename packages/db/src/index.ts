export * from "./backup.js";
export * from "./client.js";
export * from "./data-dir-lock.js";
export * from "./db-socket.js";
export * from "./migration-level.js";
export { defaultDataDir, migrationsFolder, resolveDataDir, seedFolder } from "./paths.js";
export * as schema from "./schema/index.js";
export * from "./schema/index.js";
export {
  insertSeedEvents,
  isEmpty,
  readSeedRacers,
  SEED_COMPETITIONS,
  SEED_EVENTS,
  type SeedSummary,
  seed,
} from "./seed.js";
export * from "./services/admin-events.js";
export * from "./services/admin-tokens.js";
export * from "./services/admin-users.js";
export * from "./services/audit.js";
export * from "./services/competitions.js";
export * from "./services/connections.js";
export * from "./services/email-confirmation.js";
export * from "./services/embed-tokens.js";
export * from "./services/events.js";
export * from "./services/freeze.js";
export * from "./services/jobs.js";
export * from "./services/leagues.js";
export * from "./services/live-rounds.js";
export * from "./services/outbox.js";
export * from "./services/partner-stats.js";
export * from "./services/partners.js";
export * from "./services/passwords.js";
export * from "./services/picks.js";
export * from "./services/portraits.js";
export * from "./services/profiles.js";
export * from "./services/public-api.js";
export * from "./services/racers.js";
export * from "./services/racers-admin.js";
export * from "./services/racers-import.js";
export * from "./services/ranking-versions.js";
export * from "./services/rankings.js";
export * from "./services/rate-limits.js";
export * from "./services/reminders.js";
export * from "./services/results.js";
export * from "./services/scoring.js";
export * from "./services/season.js";
export * from "./services/season-status.js";
export * from "./services/sessions.js";
export * from "./services/teams.js";
export * from "./services/transfers.js";
export * from "./services/users.js";
