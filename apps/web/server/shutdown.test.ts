import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { drainServer } from "./shutdown.js";

/** A server whose answers take `ms`; resolves once it listens. */
async function slowServer(ms: number) {
  const server = http.createServer((_req, res) => {
    setTimeout(() => res.end("done"), ms);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

/** A GET on a fresh connection: its status and body, or the error's code. */
function get(url: string) {
  return new Promise<{ status?: number; body?: string; error?: string }>((resolve) => {
    const req = http.get(url, { agent: false }, (res) => {
      let body = "";
      res.on("data", (d) => {
        body += d;
      });
      res.on("end", () => resolve({ status: res.statusCode, body }));
      res.on("error", (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
    });
    req.on("error", (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("drainServer", () => {
  it("refuses new connections at once and lets a request in flight finish", async () => {
    const { server, url } = await slowServer(1200);
    const inFlight = get(url);
    await sleep(200); // the request has reached the handler
    const drained = drainServer(server, { drainMs: 10_000 });
    expect(await get(url)).toEqual({ error: "ECONNREFUSED" });
    expect(await inFlight).toEqual({ status: 200, body: "done" });
    expect(await drained).toBe(true);
  });

  it("finishes at once when nothing is in flight, keep-alive connections included", async () => {
    const { server, url } = await slowServer(0);
    const agent = new http.Agent({ keepAlive: true });
    await new Promise((resolve) =>
      http.get(url, { agent }, (res) => res.resume().on("end", resolve)),
    );
    const started = Date.now();
    expect(await drainServer(server, { drainMs: 10_000 })).toBe(true);
    // Not the drain time: the bound is half of it, so a busy machine cannot fail it.
    expect(Date.now() - started).toBeLessThan(5_000);
    agent.destroy();
  });

  it("cuts what is still running after the drain time", async () => {
    const { server, url } = await slowServer(5000);
    const inFlight = get(url);
    await sleep(200);
    const started = Date.now();
    expect(await drainServer(server, { drainMs: 300 })).toBe(false);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await inFlight).toHaveProperty("error");
  });
});
