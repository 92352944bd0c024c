// Serves the embedded database to the admin CLI while the app runs (docs/decisions/0040-cli-and-running-app.md).
// PGlite allows one process per data folder; `game-admin` finds `<DATA_DIR>/db-socket.json` and
// connects here instead of opening the folder.

import { serveDbSocket as serve } from "@game/db";

/**
 * @param {import("@game/db").DbHandle} handle the app's open database
 * @param {{ dataDir: string }} env
 * @returns {Promise<{ close(): Promise<void> }>}
 */
export async function serveDbSocket(handle, env) {
  if (handle.kind !== "pglite" || !handle.pglite || handle.location === "memory") {
    return { close: async () => {} };
  }
  try {
    return await serve(handle.pglite, env.dataDir);
  } catch (error) {
    // Players are unaffected; only the CLI cannot reach the database until a restart.
    console.error(`Admin CLI socket not started: ${error.message}`);
    return { close: async () => {} };
  }
}
