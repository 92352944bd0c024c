import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http, { type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import compression from "compression";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { preferredEncoding, staticFiles } from "./static-files.js";
import { blockThreadPool } from "./thread-pool.test-support.js";

const script = `export const racers = [${Array.from({ length: 300 }, (_, i) => `"rider ${i}"`).join(",")}];\n`;
const icon = '<svg xmlns="http://www.w3.org/2000/svg"/>';
/** A page's small chunk: well under a kilobyte, and half that in gzip. */
const chunk = `import{a as t}from"./framework-x.js";${Array.from({ length: 12 }, (_, i) => `export const c${i}=t("rider ${i}");`).join("")}\n`;

let root: string;
let server: Server;
let port: number;
beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), "gf-static-"));
  mkdirSync(path.join(root, "assets"));
  writeFileSync(path.join(root, "assets", "app-Ab12.js"), script);
  writeFileSync(path.join(root, "favicon.svg"), icon);
  writeFileSync(path.join(root, "assets", "chunk-Ef56.js"), chunk);
  writeFileSync(path.join(root, ".env"), "SECRET=1");
  // As server.js mounts it: behind compression, before the app's own routes.
  const app = express();
  app.use(compression());
  app.use("/embed", (_req, res, next) => {
    res.setHeader("Cache-Control", "public, max-age=300");
    next();
  });
  app.use(staticFiles(root));
  app.get("/healthz", (_req, res) => res.type("text/plain").send("ok"));
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("not listening on a port");
  port = address.port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

/** A raw request (no decompression): status, headers and body bytes. */
function get(
  pathname: string,
  headers: http.OutgoingHttpHeaders = {},
  method = "GET",
): Promise<{ status: number | undefined; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port, path: pathname, method, headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on("error", reject);
    req.end();
  });
}

describe("the client build's files, served from memory", () => {
  it("serves hashed assets for a year and other files for an hour, with their types", async () => {
    const asset = await get("/assets/app-Ab12.js", { "Accept-Encoding": "identity" });
    expect(asset.status).toBe(200);
    expect(asset.body.toString()).toBe(script);
    expect(asset.headers["content-type"]).toBe("application/javascript; charset=UTF-8");
    expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(asset.headers.etag).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]+"$/);
    const favicon = await get("/favicon.svg");
    expect(favicon.body.toString()).toBe(icon);
    expect(favicon.headers["content-type"]).toBe("image/svg+xml");
    expect(favicon.headers["cache-control"]).toBe("public, max-age=3600");
  });

  it("sends brotli or gzip as the browser accepts, compressed once at start", async () => {
    const br = await get("/assets/app-Ab12.js", { "Accept-Encoding": "gzip, deflate, br" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toBe("Accept-Encoding");
    expect(brotliDecompressSync(br.body).toString()).toBe(script);
    expect(Number(br.headers["content-length"])).toBe(br.body.length);
    const gzip = await get("/assets/app-Ab12.js", { "Accept-Encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.body).toString()).toBe(script);
  });

  it("compresses small files too, unless compression would make them larger", async () => {
    expect(chunk.length).toBeLessThan(1024);
    const small = await get("/assets/chunk-Ef56.js", { "Accept-Encoding": "gzip" });
    expect(small.headers["content-encoding"]).toBe("gzip");
    expect(small.body.length).toBeLessThan(chunk.length / 2);
    expect(gunzipSync(small.body).toString()).toBe(chunk);
    // 40 bytes of SVG: gzip's own header would make it larger, so it goes as it is.
    const tiny = await get("/favicon.svg", { "Accept-Encoding": "gzip, br" });
    expect(tiny.headers["content-encoding"]).toBeUndefined();
    expect(tiny.body.toString()).toBe(icon);
  });

  it("picks the encoding the browser weighs more, brotli on a tie", () => {
    expect(preferredEncoding("gzip, deflate, br")).toBe("br");
    expect(preferredEncoding("br;q=0.5, gzip")).toBe("gzip");
    expect(preferredEncoding("gzip;q=0, *")).toBe("br");
    expect(preferredEncoding("br;q=0, gzip;q=0")).toBeNull();
    expect(preferredEncoding("identity")).toBeNull();
    expect(preferredEncoding(undefined)).toBeNull();
  });

  it("answers 304 to a revalidation, HEAD without a body, and passes everything else on", async () => {
    const first = await get("/assets/app-Ab12.js");
    const again = await get("/assets/app-Ab12.js", { "If-None-Match": first.headers.etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    const head = await get("/favicon.svg", {}, "HEAD");
    expect([head.status, head.body.length]).toEqual([200, 0]);
    expect((await get("/healthz")).body.toString()).toBe("ok");
    expect((await get("/.env")).status).toBe(404);
    expect((await get("/assets")).status).toBe(404);
    expect((await get("/assets/nope.js")).status).toBe(404);
  });

  it("serves files and passes pages on while the thread pool is taken", async () => {
    const pool = blockThreadPool();
    try {
      const [asset, health] = await Promise.all([
        get("/assets/app-Ab12.js", { "Accept-Encoding": "gzip" }),
        get("/healthz"),
      ]);
      expect(asset.status).toBe(200);
      expect(gunzipSync(asset.body).toString()).toBe(script);
      expect(health.body.toString()).toBe("ok");
    } finally {
      await pool.release();
    }
  });
});
