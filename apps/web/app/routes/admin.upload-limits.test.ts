// Big racer uploads never block the server (docs/decisions/0150-abuse-proof-load.md): a file over
// CSV_MAX_ROWS is refused at its 20,001st row while it is still arriving (the rest is never
// read), and one CSV upload runs at a time: another is told to wait before a byte of it is read.
import { CSV_MAX_ROWS } from "@game/core";
import { racers } from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookieFor, makeUser, testContext } from "../../tests/support/context";
import * as racersApi from "./admin.racers";
import * as results from "./admin.results";

let h: DbHandle;
let ctx: ReturnType<typeof testContext>;
let cookie: string;

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  ctx = testContext(h.db);
  cookie = await cookieFor(ctx, await makeUser(h.db, { role: "admin" }));
});
afterAll(() => h.close());

const HEADER = "Category,First Name,Last Name,Game ID,Price\n";
const row = (i: number) => `Pro Men,Burst,"Rider ${i}",5,75000\n`;

/**
 * A request body the test sends piece by piece: `send` queues text, `end` finishes it; `pulled`
 * counts the pieces the server has read.
 */
function trickle() {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stats = { pulled: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    pull() {
      stats.pulled += 1;
    },
    cancel() {
      stats.cancelled = true;
    },
  });
  return {
    body,
    stats,
    send: (text: string) => controller.enqueue(encoder.encode(text)),
    end: () => controller.close(),
  };
}

function upload(path: string, type: string, body: ReadableStream<Uint8Array>) {
  return new Request(`http://localhost${path}`, {
    method: "POST",
    headers: { "Content-Type": type, Origin: "http://localhost", Cookie: cookie },
    body,
    duplex: "half",
  } as RequestInit);
}

const BOUNDARY = "----gf-upload-test";
const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;
const filePart = (name = "racers.csv") =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/csv\r\n\r\n`;

async function json(response: unknown) {
  const r = response as Response;
  return { status: r.status, body: (await r.json()) as { ok: boolean; error?: string } };
}

/**
 * A body handed out one piece each time the server asks for more, that never ends: after the
 * last piece it waits for ever. `given` counts the pieces the server took.
 */
function onDemand(pieces: string[]) {
  const encoder = new TextEncoder();
  const stats = { given: 0 };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const piece = pieces[stats.given];
      if (piece === undefined) return new Promise(() => {});
      stats.given += 1;
      controller.enqueue(encoder.encode(piece));
    },
  });
  return { body, stats };
}

/** Pieces of 1,000 racer rows each, `n` of them. */
const rowPieces = (n: number, wrap: (rows: string) => string = (rows) => rows) =>
  Array.from({ length: n }, (_, p) =>
    wrap(Array.from({ length: 1000 }, (_, i) => row(p * 1000 + i)).join("")),
  );

describe("a racer file over CSV_MAX_ROWS", () => {
  it("is refused at its 20,001st row while the file is still arriving (multipart)", async () => {
    // 60,000 rows, and the file never ends: only a refusal on the way can answer.
    const pieces = [filePart() + HEADER, ...rowPieces(60)];
    const t = onDemand(pieces);
    const res = await json(
      await racersApi.action({
        request: upload("/admin/racers", MULTIPART, t.body),
        context: ctx,
        params: {},
      }),
    );
    expect(res).toEqual({
      status: 413,
      body: {
        ok: false,
        error: "The file has more than 20,000 rows; racer files are limited to 20,000 rows.",
      },
    });
    // Read up to the row over the limit (and what streams had buffered), no further.
    expect(t.stats.given).toBeLessThan(pieces.length / 2);
    expect(await h.db.select().from(racers).where(eq(racers.firstName, "Burst"))).toEqual([]);
  });

  it("is refused the same way from the dashboard's script (JSON with the file's text)", async () => {
    // The text field's JSON escapes (\n, \") arrive split anywhere.
    const escaped = (rows: string) => JSON.stringify(rows).slice(1, -1);
    const body = [
      `{"fileName":"racers.csv","bytes":1,"dryRun":true,"text":"${escaped(HEADER)}`,
      ...rowPieces(60, escaped),
    ].join("");
    const pieces = body.match(/[\s\S]{1,65521}/g)!;
    const t = onDemand(pieces);
    const res = await json(
      await racersApi.action({
        request: upload("/admin/racers", "application/json", t.body),
        context: ctx,
        params: {},
      }),
    );
    expect(res).toMatchObject({
      status: 413,
      body: { ok: false, error: expect.stringContaining("more than 20,000 rows") },
    });
    expect(t.stats.given).toBeLessThan(pieces.length / 2);
  });

  it("is taken at exactly CSV_MAX_ROWS rows", async () => {
    const t = trickle();
    t.send(filePart("limit.csv") + HEADER);
    for (let i = 0; i < CSV_MAX_ROWS; i += 1000) {
      t.send(Array.from({ length: 1000 }, (_, k) => row(i + k)).join(""));
    }
    t.send(`\r\n--${BOUNDARY}--\r\n`);
    t.end();
    const res = await json(
      await racersApi.action({
        request: upload("/admin/racers", MULTIPART, t.body),
        context: ctx,
        params: {},
      }),
    );
    expect(res).toMatchObject({ status: 200, body: { ok: true } });
  });
});

describe("CSV uploads, one at a time", () => {
  it("tells a second upload to wait (503) while one is being read, without reading it", async () => {
    const first = trickle();
    first.send(filePart("first.csv") + HEADER + row(1));
    const running = Promise.resolve(
      racersApi.action({
        request: upload("/admin/racers", MULTIPART, first.body),
        context: ctx,
        params: {},
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 0));

    const second = trickle();
    second.send(filePart("second.csv") + HEADER + row(2));
    const refused = await json(
      await racersApi.action({
        request: upload("/admin/racers", MULTIPART, second.body),
        context: ctx,
        params: {},
      }),
    );
    expect(refused).toEqual({
      status: 503,
      body: {
        ok: false,
        error: "Another upload is being processed. Please wait a moment and try again.",
      },
    });
    expect(second.stats.pulled).toBe(0);

    // A results upload waits for the same turn.
    const resultsPost = trickle();
    resultsPost.send(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="eventId"\r\n\r\n5`);
    const busy = (await results.action({
      request: upload("/admin/results", MULTIPART, resultsPost.body),
      context: ctx,
      params: {},
    })) as { data: { ok: boolean; error: string }; init: { status: number } };
    expect(busy.init.status).toBe(503);
    expect(busy.data.error).toBe(
      "Another upload is being processed. Please wait a moment and try again.",
    );

    first.send(`\r\n--${BOUNDARY}--\r\n`);
    first.end();
    expect((await json(await running)).status).toBe(200);
    // The turn is free again.
    const again = trickle();
    again.send(`${filePart("again.csv") + HEADER + row(3)}\r\n--${BOUNDARY}--\r\n`);
    again.end();
    const ok = await json(
      await racersApi.action({
        request: upload("/admin/racers", MULTIPART, again.body),
        context: ctx,
        params: {},
      }),
    );
    expect(ok.status).toBe(200);
  });
});
