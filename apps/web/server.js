// The web server: Express + Remix, one database handle for the process, clean shutdown.

import { createDb, seed } from "@game/db";
import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";
import { serveDbSocket } from "./server/db-socket.js";
import { readEnv } from "./server/env.js";
import { startFreezing } from "./server/freeze-teams.js";
import { startMaintenance } from "./server/maintenance.js";
import { sameOriginOnly } from "./server/origin.js";
import { securityHeaders } from "./server/security-headers.js";

const started = Date.now();
let env;
try {
  env = readEnv();
} catch (error) {
  console.error(`Configuration error: ${error.message}`);
  process.exit(1);
}

const handle = await createDb({ url: env.databaseUrl, dataDir: env.dataDir });
// The admin CLI reaches the embedded database through the app while it runs.
const dbSocket = await serveDbSocket(handle, env);
const seeded = await seed(handle.db);
if (seeded.eventsAdded || seeded.racersAdded) {
  console.log(`Seeded ${seeded.eventsAdded} events and ${seeded.racersAdded} racers.`);
}

const viteDevServer = env.production
  ? undefined
  : await import("vite").then((vite) => vite.createServer({ server: { middlewareMode: true } }));

const app = express();
app.disable("x-powered-by");
app.set("trust proxy", env.trustProxy);
app.use(compression());
// No framing, except the partner iframe pages (their routes set frame-ancestors themselves).
app.use(securityHeaders());
// Before any route: no action can forget the cross-site check.
app.use(sameOriginOnly({ publicUrl: env.publicUrl }));

if (viteDevServer) {
  app.use(viteDevServer.middlewares);
} else {
  app.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y" }));
  app.use(express.static("build/client", { maxAge: "1h" }));
}

const build = viteDevServer
  ? () => viteDevServer.ssrLoadModule("virtual:remix/server-build")
  : await import("./build/server/index.js");

/** @type {import("@remix-run/node").AppLoadContext} */
const context = {
  db: handle.db,
  dbKind: handle.kind,
  env,
  now: () => new Date(),
};

app.all(
  "*",
  createRequestHandler({ build, getLoadContext: (req) => ({ ...context, clientIp: req.ip }) }),
);
const stopMaintenance = startMaintenance(handle.db);
// Teams freeze at each event's lock moment (12 h before the start), what scoring reads.
const stopFreezing = startFreezing(handle.db);

const server = app.listen(env.port, env.host, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : env.port;
  console.log(
    `Gravity Fantasy on http://localhost:${port} (${handle.kind}: ${handle.location}) in ${Date.now() - started} ms`,
  );
});

let stopping = false;
async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: shutting down`);
  const timer = setTimeout(() => process.exit(0), 5000);
  timer.unref();
  stopMaintenance();
  stopFreezing();
  server.close();
  server.closeAllConnections?.();
  await viteDevServer?.close();
  await dbSocket.close();
  await handle.close();
  process.exit(0);
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
