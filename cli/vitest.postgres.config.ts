import { configDefaults, defineConfig } from "vitest/config";
import base from "./vitest.config";

/*
 * The CLI tests CI runs again on PostgreSQL (`DATABASE_URL` set): those whose behaviour depends on
 * the engine. The CLI reaches the database only through @game/db, whose own tests all run on
 * PostgreSQL too; what the engine changes here is the CLI's connection (a lost one, its context),
 * the commands that refuse or differ on a server (db backup, reminders), and one end-to-end path
 * of each kind of write the settlement makes (results import, provisional results, the season).
 * The list replaces the base config's.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: [
      "src/context.test.ts",
      "src/lost-connection.test.ts",
      "src/commands/db/backup.test.ts",
      "src/commands/reminders/reminders.test.ts",
      "src/commands/results/results.test.ts",
      "src/commands/results/results.provisional.test.ts",
      "src/commands/season/season.test.ts",
    ],
    exclude: [...configDefaults.exclude],
  },
});
