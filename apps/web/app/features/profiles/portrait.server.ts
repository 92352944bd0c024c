/**
 * Serving racers' portraits from the database (docs/decisions/0112-serving-portraits.md): the
 * 128 px square or, with `size=large`, the 480 px one; cached a day, then revalidated by a strong
 * ETag.
 */
import { getPortrait } from "@game/db";
import type { AppLoadContext } from "@remix-run/node";

export const PORTRAIT_CACHE_CONTROL = "public, max-age=86400, stale-while-revalidate=2592000";

function notFound(): Response {
  return new Response("Not found\n", {
    status: 404,
    // A portrait may be added at any time: a miss is not kept for long.
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=60" },
  });
}

/** Does an If-None-Match header name this ETag (or `*`)? Weak forms match too (RFC 9110 13.1.2). */
function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(",")
    .map((t) => t.trim().replace(/^W\//, ""))
    .some((t) => t === "*" || t === etag);
}

/** The portrait named `picture` as an image response (a 304 when the client's copy is current). */
export async function portraitResponse(
  request: Request,
  picture: string,
  context: AppLoadContext,
): Promise<Response> {
  if (!picture || picture.length > 300) return notFound();
  const size = new URL(request.url).searchParams.get("size") === "large" ? "large" : "thumb";
  const portrait = await getPortrait(context.db, picture, size);
  if (!portrait) return notFound();
  const etag = `"${portrait.etag}-${size === "large" ? "l" : "t"}"`;
  const headers = {
    "Cache-Control": PORTRAIT_CACHE_CONTROL,
    ETag: etag,
    "Last-Modified": portrait.updatedAt.toUTCString(),
  };
  if (matches(request.headers.get("If-None-Match"), etag)) {
    return new Response(null, { status: 304, headers });
  }
  return new Response(Uint8Array.from(portrait.bytes), {
    headers: {
      ...headers,
      "Content-Type": "image/webp",
      "Content-Length": String(portrait.bytes.byteLength),
    },
  });
}
