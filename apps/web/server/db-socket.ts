// Serves the embedded database to the admin CLI while the app runs (docs/decisions/0040-cli-and-running-app.md).
// PGlite allows one process per data folder; `game-admin` finds `<DATA_DIR>/db-socket.json` and
// connects here instead of opening the folder. Once listening, the app adds its public address to
// that file: the CLI's reminders link to it (docs/decisions/0143-reminder-links.md).

import { type DbHandle, serveDbSocket as serve } from "@game/db";
import { messageOf } from "./start-db.js";

export interface AppDbSocket {
  publish(details: { publicUrl: string }): void;
  close(): Promise<void>;
}

/** `handle`: the app's open database. */
export async function serveDbSocket(
  handle: DbHandle,
  env: { dataDir: string },
): Promise<AppDbSocket> {
  const none: AppDbSocket = { publish: () => {}, close: async () => {} };
  if (handle.kind !== "pglite" || !handle.pglite || handle.location === "memory") return none;
  try {
    const served = await serve(handle.pglite, env.dataDir);
    return {
      publish(details) {
        try {
          served.publish(details);
        } catch (error) {
          // Players are unaffected; the CLI asks for PUBLIC_URL before it mails links.
          console.error(`Public address not published for the admin CLI: ${messageOf(error)}`);
        }
      },
      close: () => served.close(),
    };
  } catch (error) {
    // Players are unaffected; only the CLI cannot reach the database until a restart.
    console.error(`Admin CLI socket not started: ${messageOf(error)}`);
    return none;
  }
}
