import http from "node:http";
import net from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BodyTooLargeError,
  bodyLimit,
  bodyLimitFor,
  FORM_MAX_BYTES,
  lateErrors,
  UPLOAD_JSON_MAX_BYTES,
  UPLOAD_MAX_BYTES,
} from "./body-limit.js";
import { portOf } from "./listen.test-support";

let server: http.Server;
let port: number;
/** What the handler behind the limit saw: whether it was reached and how much it read. */
const seen: { path: string; bytes: number; error: Error | null }[] = [];

/** A raw request's answer, and how long it took. */
interface Answer {
  status: number | undefined;
  body: string;
  headers: http.IncomingHttpHeaders;
  ms: number;
}

beforeAll(async () => {
  const app = express();
  app.use(bodyLimit());
  // Answers at once, reading nothing (an upload told to wait).
  app.post("/busy", (_req, res) => res.status(503).type("text/plain").send("busy"));
  app.all("*", (req, res, next) => {
    const entry: (typeof seen)[number] = { path: req.path, bytes: 0, error: null };
    seen.push(entry);
    req.on("data", (chunk: Buffer) => {
      entry.bytes += chunk.length;
    });
    req.on("error", (error) => {
      entry.error = error;
      next(error);
    });
    req.on("end", () => res.type("text/plain").send(`read ${entry.bytes}`));
  });
  app.use(lateErrors());
  await new Promise<void>((resolve) => {
    server = app.listen(0, "127.0.0.1", resolve);
  });
  port = portOf(server);
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** A raw request, so the test controls Content-Length and chunking (fetch would not). */
function send(
  path: string,
  {
    headers = {},
    chunks = [],
    endBody = true,
  }: { headers?: http.OutgoingHttpHeaders; chunks?: Buffer[]; endBody?: boolean } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const req = http.request({ host: "127.0.0.1", port, path, method: "POST", headers }, (res) => {
      let body = "";
      res.on("data", (d: Buffer) => {
        body += d;
      });
      res.on("end", () =>
        resolve({ status: res.statusCode, body, headers: res.headers, ms: Date.now() - started }),
      );
    });
    // The server may close the connection before the client stops writing: that is the point.
    req.on("error", (error: NodeJS.ErrnoException) =>
      error.code === "ECONNRESET" || error.code === "EPIPE" ? null : reject(error),
    );
    for (const chunk of chunks) req.write(chunk);
    if (endBody) req.end();
    else req.flushHeaders();
  });
}

describe("bodyLimitFor", () => {
  it("gives forms 64 KB and the upload pages room for a 5 MB CSV", () => {
    expect(bodyLimitFor({ path: "/login" })).toBe(64 * 1024);
    expect(bodyLimitFor({ path: "/leagues/actions" })).toBe(FORM_MAX_BYTES);
    expect(bodyLimitFor({ path: "/api/v1/events" })).toBe(FORM_MAX_BYTES);
    expect(bodyLimitFor({ path: "/admin/results", contentType: "multipart/form-data; b=x" })).toBe(
      UPLOAD_MAX_BYTES,
    );
    expect(bodyLimitFor({ path: "/admin.data" })).toBe(UPLOAD_MAX_BYTES);
    // Portrait images: the same 5 MB (and framing) per post, with or without JavaScript.
    expect(
      bodyLimitFor({ path: "/admin/portraits", contentType: "multipart/form-data; b=x" }),
    ).toBe(UPLOAD_MAX_BYTES);
    expect(bodyLimitFor({ path: "/admin/portraits.data" })).toBe(UPLOAD_MAX_BYTES);
    expect(bodyLimitFor({ path: "/admin/racers", contentType: "application/json" })).toBe(
      UPLOAD_JSON_MAX_BYTES,
    );
    // Other admin pages are forms.
    expect(bodyLimitFor({ path: "/admin/users" })).toBe(FORM_MAX_BYTES);
  });
});

describe("bodyLimit", () => {
  it("refuses a declared 300 MB body at once, without reading any of it", async () => {
    const before = seen.length;
    // Only the headers are sent: an answer can only come from refusing before the body.
    const res = await send("/login", {
      headers: { "Content-Length": String(300 * 1024 * 1024), "Content-Type": "text/plain" },
      endBody: false,
    });
    expect(res.status).toBe(413);
    expect(res.body).toBe("The request is too large.");
    expect(res.headers.connection).toBe("close");
    // Refused before any body: far sooner than a server would give up waiting for one.
    expect(res.ms).toBeLessThan(15_000);
    // The handler (Remix, with its sign-in check) never ran.
    expect(seen.length).toBe(before);
  });

  it("refuses a streamed body once it passes the limit, and the reader gets an error, not a truncated body", async () => {
    const before = seen.length;
    const chunk = Buffer.alloc(16 * 1024, 97);
    const res = await send("/leagues/actions", {
      headers: {
        "Transfer-Encoding": "chunked",
        "Content-Type": "application/x-www-form-urlencoded",
      },
      chunks: Array.from({ length: 40 }, () => chunk),
    });
    expect(res.status).toBe(413);
    const entry = seen[before]!;
    expect(entry.error).toBeInstanceOf(BodyTooLargeError);
    // The reader saw at most the limit, never the 640 KB sent.
    expect(entry.bytes).toBeLessThanOrEqual(FORM_MAX_BYTES);
  });

  it("lets bodies within the limit through whole, declared or streamed", async () => {
    const body = Buffer.alloc(FORM_MAX_BYTES, 98);
    const declared = await send("/login", {
      headers: { "Content-Length": String(body.length) },
      chunks: [body],
    });
    expect(declared).toMatchObject({ status: 200, body: `read ${FORM_MAX_BYTES}` });
    const streamed = await send("/login", {
      headers: { "Transfer-Encoding": "chunked" },
      chunks: [body.subarray(0, 1000), body.subarray(1000)],
    });
    expect(streamed).toMatchObject({ status: 200, body: `read ${FORM_MAX_BYTES}` });
  });

  it("takes a 5 MB CSV on the upload pages but not 64 KB and one byte on a form", async () => {
    const csv = Buffer.alloc(5 * 1024 * 1024, 99);
    const upload = await send("/admin/results", {
      headers: {
        "Content-Length": String(csv.length),
        "Content-Type": "multipart/form-data; boundary=x",
      },
      chunks: [csv],
    });
    expect(upload.status).toBe(200);
    const form = await send("/admin/users", {
      headers: { "Content-Length": String(FORM_MAX_BYTES + 1) },
      endBody: false,
    });
    expect(form.status).toBe(413);
  });
});

describe("a refused client that keeps sending", () => {
  it("is cut off shortly after its 413, its bytes never read", async () => {
    const socket = net.connect(port, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.write(
      "POST /login HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: text/plain\r\n\r\n",
    );
    let answer = "";
    socket.on("data", (d: Buffer) => {
      answer += d;
    });
    socket.on("error", () => {});
    const chunk = `${(16 * 1024).toString(16)}\r\n${"x".repeat(16 * 1024)}\r\n`;
    const pump = setInterval(() => socket.writable && socket.write(chunk), 10);
    const closedAfter = await new Promise<number>((resolve) => {
      const started = Date.now();
      socket.once("close", () => resolve(Date.now() - started));
    });
    clearInterval(pump);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(closedAfter).toBeLessThan(3000);
  });
});

describe("an answer sent before the body has all arrived", () => {
  it("closes the connection once it is out, the rest of the body dropped unread", async () => {
    const socket = net.connect(port, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    let answer = "";
    socket.on("data", (d: Buffer) => {
      answer += d;
    });
    socket.on("error", () => {});
    const closed = new Promise((resolve) => socket.once("close", resolve));
    // A chunked body that is never finished.
    socket.write(
      "POST /busy HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: text/plain\r\n\r\n4\r\nrows\r\n",
    );
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 503 /);
    expect(answer).toMatch(/\r\nConnection: close\r\n/i);
  });

  it("keeps the connection of a request whose body was read", async () => {
    const res = await fetch(`http://127.0.0.1:${port}/read`, { method: "POST", body: "name=x" });
    expect(await res.text()).toBe("read 6");
    expect(res.headers.get("connection")).not.toBe("close");
  });
});
