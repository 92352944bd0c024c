// Big racer uploads against the built app (`node build/server.js`): a file over 20,000 rows is refused
// while it is still being sent, and of ten 5 MB uploads posted together one is read and imported
// while the others are told at once to wait (docs/decisions/0150-abuse-proof-load.md). What they
// cost a visitor is measured by bench/login-burst, not here.
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { createAccount, createDb, createSession, seed } from "@game/db";
import { createCookie } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnApp } from "./spawn-app.test-support.js";

const SECRET = "upload-limits-test-secret-0123456789";
const BOUNDARY = "----gf-upload-limits";
const running = new Set<ChildProcessWithoutNullStreams>();
let dataDir: string;
let port: number;
let cookie: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "gf-uploads-"));
  // The app below runs on the embedded database in dataDir, whatever DATABASE_URL the tests run
  // with: prepare that one ("" means embedded).
  const h = await createDb({ url: "", dataDir });
  try {
    await seed(h.db);
    const admin = await createAccount(h.db, {
      email: "uploads-admin@example.com",
      username: "Uploads_Admin",
      passwordHash: "test:unusable",
      role: "admin",
    });
    const { token } = await createSession(h.db, admin.id);
    const signed = createCookie("gf_session", { path: "/", sameSite: "lax", secrets: [SECRET] });
    cookie = (await signed.serialize(token)).split(";")[0]!;
  } finally {
    await h.close();
  }
  const app = spawnApp(
    { DATABASE_URL: undefined, DATA_DIR: dataDir, SESSION_SECRET: SECRET },
    running,
  );
  port = await app.port;
}, 120_000);
afterAll(() => {
  for (const child of running) child.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

const HEADER = "Category,First Name,Last Name,Picture,Game ID,Price\n";
const rows = (from: number, n: number, pad = "") =>
  Array.from(
    { length: n },
    (_, i) => `Pro Men,Upload,"Rider ${from + i}",pic-${from + i}${pad}.jpg,5,75000\n`,
  ).join("");
const opening = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="racers.csv"\r\nContent-Type: text/csv\r\n\r\n`;
const closing = `\r\n--${BOUNDARY}--\r\n`;

/** POST /admin/racers with a body written piece by piece (chunked) while no answer has come. */
function streamUpload(pieces: string[]) {
  return new Promise<{ status: number | undefined; body: unknown }>((resolve, reject) => {
    let written = 0;
    let answered = false;
    const req = http.request({
      host: "127.0.0.1",
      port,
      path: "/admin/racers",
      method: "POST",
      headers: {
        "Content-Type": `multipart/form-data; boundary=${BOUNDARY}`,
        Origin: `http://127.0.0.1:${port}`,
        Cookie: cookie,
        "Transfer-Encoding": "chunked",
      },
    });
    req.on("response", (res) => {
      answered = true;
      let body = "";
      res.on("data", (d) => {
        body += d;
      });
      res.on("end", () => {
        resolve({ status: res.statusCode, body: JSON.parse(body) });
        req.destroy();
      });
    });
    // The server may close the connection while this side still writes: the answer counts.
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    const next = () => {
      while (!answered && written < pieces.length) {
        const more = req.write(pieces[written++]);
        if (!more) {
          req.once("drain", () => setImmediate(next));
          return;
        }
      }
      // All sent without an answer: the file never ends, so only a refusal on the way answers.
    };
    next();
  });
}

/** POST /admin/racers with a whole multipart body, as a browser's form does. */
function postUpload(body: Buffer<ArrayBuffer>) {
  return fetch(`http://127.0.0.1:${port}/admin/racers`, {
    method: "POST",
    headers: {
      "Content-Type": `multipart/form-data; boundary=${BOUNDARY}`,
      Origin: `http://127.0.0.1:${port}`,
      Cookie: cookie,
    },
    body,
  });
}

describe("racer uploads against the running app", () => {
  it("refuses a file over 20,000 rows while it is still being sent", async () => {
    // 100,000 rows in under 5 MB, and the file never ends (no closing boundary, no last chunk):
    // only a refusal on the way can answer it.
    const pieces = [opening + HEADER];
    for (let i = 0; i < 100; i++) pieces.push(rows(i * 1000, 1000));
    expect(Buffer.byteLength(pieces.join(""))).toBeLessThan(5 * 1024 * 1024);
    const answer = await streamUpload(pieces);
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({
      ok: false,
      error: "The file has more than 20,000 rows; racer files are limited to 20,000 rows.",
    });
  }, 60_000);

  it("imports one of ten 5 MB uploads posted together and tells the others to wait, with Retry-After", async () => {
    // 20,000 rows of about 250 bytes: just under both limits.
    const file = HEADER + rows(0, 20_000, `-${"x".repeat(190)}`);
    const size = Buffer.byteLength(file);
    expect(size).toBeGreaterThan(4.5 * 1024 * 1024);
    expect(size).toBeLessThan(5 * 1024 * 1024);
    const body = Buffer.from(opening + file + closing);
    const answers = await Promise.all(Array.from({ length: 10 }, () => postUpload(body)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 503)).toHaveLength(9);
    for (const a of answers.filter((r) => r.status === 503)) {
      expect(Number(a.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(await a.json()).toEqual({
        ok: false,
        error: "Another upload is being processed. Please wait a moment and try again.",
      });
    }
    const imported = await answers.find((a) => a.status === 200)!.json();
    expect(imported).toMatchObject({ ok: true, summary: { created: 20_000 } });
  }, 120_000);
});
