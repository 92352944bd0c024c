// The built client files (scripts, styles, images of build/client) served from memory.
//
// express.static asks the file system (`stat`, then a read) for every request that reaches it,
// pages and /healthz included, and those calls run on libuv's thread pool, which password
// hashes and compression share: a burst of logins once made /healthz wait 28 s behind them. The
// build's files never change while the app runs, so they are read once at start (about 1 MB),
// compressed once (brotli and gzip), and served without touching the pool; anything else passes
// on at once (docs/decisions/0150-abuse-proof-load.md). The build writes each file's brotli at
// the best quality beside it (`x.js.br`, server/precompress.ts): served as it is, the smallest
// download; without it (or older than the file), brotli at quality 5 at start
// (docs/decisions/0181).

import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import express, { type RequestHandler } from "express";

const { mime } = express.static;

const COMPRESSIBLE = /^(text\/|application\/(javascript|json|xml|manifest\+json)|image\/svg\+xml)/;
/** A file's brotli written by the build, beside it. */
export const BROTLI_SUFFIX = ".br";

/** Whether a file is text, served compressed wherever that makes it smaller. */
export function compressible(file: string): boolean {
  return COMPRESSIBLE.test(mime.lookup(file));
}

/**
 * `encoded` if it is smaller than the file. Compressed once, a small file costs nothing to send
 * compressed: the many small chunks of a page are half their size in gzip (docs/decisions/0181).
 */
export function ifSmaller(encoded: Buffer, body: Buffer): Buffer | undefined {
  return encoded.length < body.length ? encoded : undefined;
}

export interface StaticFile {
  body: Buffer;
  br?: Buffer;
  gzip?: Buffer;
  type: string;
  etag: string;
  lastModified: string;
}

/** Every file under `root` by its URL path ("/assets/app-x.js"), dotfiles left out. */
export function loadStaticFiles(root: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      // Dotfiles, and the build's brotli of a file (served for the file itself).
      if (entry.name.startsWith(".") || entry.name.endsWith(BROTLI_SUFFIX)) continue;
      const full = path.join(dir, entry.name);
      const url = `${prefix}/${entry.name}`;
      if (entry.isDirectory()) walk(full, url);
      else if (entry.isFile()) files.set(url, readStaticFile(full));
    }
  };
  walk(root, "");
  return files;
}

function readStaticFile(file: string): StaticFile {
  const body = readFileSync(file);
  const { mtime } = statSync(file);
  const type = mime.lookup(file);
  // "" when the type has no charset (what `send` gives as undefined).
  const charset = mime.charsets.lookup(type, "");
  const compress = compressible(file);
  return {
    body,
    ...(compress
      ? {
          br: builtBrotli(file, mtime) ?? ifSmaller(brotli(body, 5), body),
          gzip: ifSmaller(gzipSync(body, { level: 9 }), body),
        }
      : {}),
    type: charset ? `${type}; charset=${charset}` : type,
    // The same weak validator express.static (send) gives: size and modification time.
    etag: `W/"${body.length.toString(16)}-${mtime.getTime().toString(16)}"`,
    lastModified: mtime.toUTCString(),
  };
}

/**
 * Brotli of `body` at `quality`: 11 (the best) at build, 5 at start, which gives most of 11's gain
 * at a fiftieth of its time (start stays quick).
 */
export function brotli(body: Buffer, quality: number): Buffer {
  return brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: quality,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
}

/**
 * The build's brotli of `file`, unless it is missing or older than the file: changed after the
 * build. A second's slack, since copying the folder may stamp the two files in either order.
 */
function builtBrotli(file: string, mtime: Date): Buffer | undefined {
  const built = `${file}${BROTLI_SUFFIX}`;
  if (!existsSync(built) || statSync(built).mtimeMs < mtime.getTime() - 1000) return undefined;
  return readFileSync(built);
}

/**
 * "br" or "gzip", the one the client weighs more (brotli on a tie, as compression() prefers),
 * or null when it takes neither. `header`: Accept-Encoding.
 */
export function preferredEncoding(header: string | undefined): "br" | "gzip" | null {
  const named: Record<string, number> = {};
  for (const part of (header ?? "").split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)).find(Boolean);
    if (name) named[name] = q ? Number(q[1]) : 1;
  }
  const weight = (name: string) => named[name] ?? named["*"] ?? 0;
  const br = weight("br");
  const gzip = weight("gzip");
  if (br > 0 && br >= gzip) return "br";
  return gzip > 0 ? "gzip" : null;
}

/**
 * Express middleware serving the files under `root` from memory. `/assets/` files (named by
 * their content hash) are cached for a year as immutable, the others for an hour; a
 * Cache-Control set before (the embed's loader) is kept.
 */
export function staticFiles(
  root: string,
  options: { immutablePrefix?: string } = {},
): RequestHandler {
  const immutablePrefix = options.immutablePrefix ?? "/assets/";
  const files = loadStaticFiles(root);
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    let pathname: string;
    try {
      pathname = decodeURIComponent(req.path);
    } catch {
      return next();
    }
    const file = files.get(pathname);
    if (!file) return next();
    if (!res.getHeader("Cache-Control")) {
      res.setHeader(
        "Cache-Control",
        pathname.startsWith(immutablePrefix)
          ? "public, max-age=31536000, immutable"
          : "public, max-age=3600",
      );
    }
    res.setHeader("Last-Modified", file.lastModified);
    res.setHeader("ETag", file.etag);
    res.setHeader("Content-Type", file.type);
    if (req.fresh) {
      res.statusCode = 304;
      res.end();
      return;
    }
    let body = file.body;
    if (file.br || file.gzip) {
      res.vary("Accept-Encoding");
      const encoding = preferredEncoding(req.get("accept-encoding"));
      const encoded = encoding === "br" ? file.br : encoding === "gzip" ? file.gzip : undefined;
      if (encoded && encoding) {
        // compression() leaves an encoded body alone.
        res.setHeader("Content-Encoding", encoding);
        body = encoded;
      }
    }
    res.setHeader("Content-Length", body.length);
    res.statusCode = 200;
    res.end(req.method === "HEAD" ? undefined : body);
  };
}
