// The live scores hub (docs/decisions/0171) on a real database: a stream per viewer, one read per
// tick, an event within a tick of a commit, the final closes the streams, limits answer 429/503.

import type { Server } from "node:http";
import http from "node:http";
import { events, importResults, liveRoundStates, racers } from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import { eq, inArray } from "drizzle-orm";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { portOf } from "./listen.test-support.js";
import { type LiveHub, liveHub } from "./live.js";

let h: DbHandle;
let server: Server;
let hub: LiveHub;
let reads = 0;
let men: number[];
const now = new Date("2027-04-19T12:00:00Z");

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  men = (await h.db.select({ id: racers.id }).from(racers).where(eq(racers.gameId, 5)))
    .map((r) => r.id)
    .slice(0, 3);
  // Race day for rounds 5 and 6: they start in an hour, so their teams are locked.
  await h.db
    .update(events)
    .set({ startsAt: new Date(Date.now() + 3600_000), status: "open" })
    .where(inArray(events.id, [5, 6]));
  hub = liveHub({
    read: (ids) => {
      reads += 1;
      return liveRoundStates(h.db, ids);
    },
    intervalMs: 100,
    maxStreams: 4,
    perIp: 3,
    opensPerMinute: 20,
  });
  const app = express();
  app.use(hub.handler);
  app.use((_req, res) => res.status(418).end());
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
});
afterAll(async () => {
  hub.close();
  await new Promise((resolve) => server.close(resolve));
  await h.close();
});

interface Stream {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Every `scores` event's data so far. */
  events: { version: string; provisional: boolean; final: boolean; live: boolean }[];
  ended: Promise<void>;
  /** Resolves once `n` events have arrived. */
  waitFor(n: number): Promise<void>;
  close(): void;
}

function open(path: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port: portOf(server), path, agent: false }, (res) => {
      let buffer = "";
      const events: Stream["events"] = [];
      const waiters: { n: number; done: () => void }[] = [];
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        buffer += chunk;
        let at = buffer.indexOf("\n\n");
        while (at >= 0) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          const data = /^data: (.*)$/m.exec(block);
          if (/^event: scores$/m.test(block) && data) events.push(JSON.parse(data[1]!));
          at = buffer.indexOf("\n\n");
        }
        for (const w of waiters) if (events.length >= w.n) w.done();
      });
      const ended = new Promise<void>((done) => res.on("end", done));
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        events,
        ended,
        waitFor: (n) =>
          new Promise((done) => {
            if (events.length >= n) done();
            else waiters.push({ n, done });
          }),
        close: () => req.destroy(),
      });
    });
    req.on("error", reject);
  });
}

const until = async (check: () => boolean) => {
  while (!check()) await new Promise((r) => setTimeout(r, 20));
};

describe("live scores", () => {
  it("tells every viewer of a round of each settlement, then of the final, and ends", async () => {
    const a = await open("/api/v1/events/5/live");
    const b = await open("/api/v1/events/5/live");
    expect(a.status).toBe(200);
    expect(a.headers["content-type"]).toBe("text/event-stream; charset=utf-8");
    expect(a.headers["access-control-allow-origin"]).toBe("*");
    await Promise.all([a.waitFor(1), b.waitFor(1)]);
    expect(a.events[0]).toMatchObject({
      version: "0",
      provisional: false,
      final: false,
      live: true,
    });
    expect(hub.streams()).toBe(2);

    // One read a tick for both viewers, however many ticks pass.
    const before = reads;
    await new Promise((r) => setTimeout(r, 350));
    expect(reads - before).toBeLessThanOrEqual(4);

    await importResults(h.db, 5, `Position,Racer ID\n1,${men[0]}`, { now, provisional: true });
    await Promise.all([a.waitFor(2), b.waitFor(2)]);
    expect(a.events[1]).toMatchObject({ provisional: true, final: false });
    expect(b.events[1]!.version).toBe(a.events[1]!.version);

    await importResults(h.db, 5, `Position,Racer ID\n1,${men[1]}\n2,${men[0]}`, { now });
    await Promise.all([a.waitFor(3), b.waitFor(3), a.ended, b.ended]);
    expect(a.events[2]).toMatchObject({ provisional: false, final: true, live: false });
    await until(() => hub.streams() === 0);

    // A round already final answers its state and ends at once.
    const late = await open("/api/v1/events/5/live");
    await late.ended;
    expect(late.events).toEqual([a.events[2]]);
  });

  it("ends at once the stream of a round that is not live (not locked yet)", async () => {
    const early = await open("/api/v1/events/7/live");
    await early.ended;
    expect(early.status).toBe(200);
    expect(early.events).toEqual([
      { eventId: 7, version: "0", provisional: false, final: false, live: false },
    ]);
    await until(() => hub.streams() === 0);
  });

  it("answers a bad id 400, an unknown round 404, a write 405", async () => {
    expect((await open("/api/v1/events/x/live")).status).toBe(400);
    expect((await open("/api/v1/events/0/live")).status).toBe(400);
    expect((await open("/api/v1/events/99999/live")).status).toBe(404);
    const post = await new Promise<number>((resolve, reject) => {
      http
        .request(
          {
            host: "127.0.0.1",
            port: portOf(server),
            path: "/api/v1/events/5/live",
            method: "POST",
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        )
        .on("error", reject)
        .end();
    });
    expect(post).toBe(405);
    // Other paths pass through.
    expect((await open("/api/v1/events/6/results")).status).toBe(418);
  });

  it("limits streams per address (429), and frees them on close", async () => {
    const mine = await Promise.all([6, 6, 6].map((id) => open(`/api/v1/events/${id}/live`)));
    expect(mine.map((s) => s.status)).toEqual([200, 200, 200]);
    const fourth = await open("/api/v1/events/6/live");
    expect(fourth.status).toBe(429);
    expect(fourth.headers["retry-after"]).toBe("30");
    mine[0]!.close();
    await until(() => hub.streams() === 2);
    const again = await open("/api/v1/events/6/live");
    expect(again.status).toBe(200);
    for (const s of [...mine, again]) s.close();
    await until(() => hub.streams() === 0);
  });

  it("refuses an address that opens too many streams in a minute (429)", async () => {
    // The tests above opened some already; this address may open 20 a minute in all.
    let status = 200;
    for (let i = 0; i < 25 && status !== 429; i++) {
      const s = await open("/api/v1/events/99999/live");
      status = s.status;
    }
    expect(status).toBe(429);
  });
});
