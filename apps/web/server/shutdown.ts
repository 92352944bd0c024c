// Graceful shutdown: stop accepting, let requests in flight finish, then close
// (docs/decisions/0071-outages-and-shutdown.md). Cutting a request whose save already committed
// tells the player it failed when it did not.

import type { Server } from "node:http";
import type { RequestHandler } from "express";

/**
 * Closes `server`: new connections are refused at once, idle keep-alive connections are closed,
 * requests in flight may finish for up to `drainMs`, then the remaining connections are cut.
 * Resolves true when everything finished in time, false when something had to be cut.
 */
export function drainServer(server: Server, { drainMs = 10_000 } = {}): Promise<boolean> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (drained: boolean) => {
      if (done) return;
      done = true;
      clearInterval(idle);
      clearTimeout(deadline);
      resolve(drained);
    };
    server.close(() => finish(true));
    server.closeIdleConnections();
    // A keep-alive connection turns idle when its last request ends: close it then, so the
    // server's close completes as soon as the last request is answered.
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    const deadline = setTimeout(() => {
      server.closeAllConnections();
      finish(false);
    }, drainMs);
  });
}

/**
 * Express middleware: while shutting down, answers say `Connection: close` so clients do not
 * send another request on a connection about to end.
 */
export function closeConnectionsWhen(stopping: () => boolean): RequestHandler {
  return (_req, res, next) => {
    if (stopping()) res.set("Connection", "close");
    next();
  };
}
