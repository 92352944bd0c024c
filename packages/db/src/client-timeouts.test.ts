import net from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "./client.js";

// An outage must answer in seconds, not hang requests (docs/decisions/0071-outages-and-shutdown.md).
describe("PostgreSQL timeouts", () => {
  // A server that accepts connections and never says a word: a database host that hangs.
  let silent: net.Server;
  let silentPort: number;
  const sockets: net.Socket[] = [];
  beforeAll(async () => {
    silent = net.createServer((s) => sockets.push(s));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    silentPort = (silent.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it("gives up connecting after the connect timeout", async () => {
    const started = Date.now();
    await expect(
      createDb({ url: `postgres://x@127.0.0.1:${silentPort}/x`, connectTimeoutSeconds: 1 }),
    ).rejects.toThrow(/CONNECT_TIMEOUT|timeout/i);
    // The server never answers: without the timeout this would wait forever. A wide bound, so a
    // busy machine cannot fail it.
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it.skipIf(!process.env.DATABASE_URL)("cancels a statement running past the timeout", async () => {
    const url = process.env.DATABASE_URL!;
    const h = await createDb({ url, migrate: false, statementTimeoutMs: 300, max: 1 });
    try {
      const started = Date.now();
      await expect(h.db.execute(sql`select pg_sleep(3)`)).rejects.toMatchObject({
        cause: expect.objectContaining({ code: "57014" }),
      });
      expect(Date.now() - started).toBeLessThan(2500);
      // Short statements are unaffected.
      await expect(h.db.execute(sql`select 1`)).resolves.toBeDefined();
    } finally {
      await h.close();
    }
  });
});
