import type { AddressInfo } from "node:net";

/** The TCP port a test server listens on (`listen(0)` picked it). */
export function portOf(server: { address(): AddressInfo | string | null }): number {
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("not listening on a port");
  return address.port;
}
