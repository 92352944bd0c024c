import { CLI_ACTOR, storePortrait } from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testContext } from "../../tests/support/context";
import { PORTRAIT_CACHE_CONTROL } from "../features/profiles/portrait.server";
import { loader } from "./img.racer[_]portrait.$picture";

let h: DbHandle;
beforeAll(async () => {
  h = await createTestDb({ seed: true });
  const bytes = await sharp({
    create: { width: 300, height: 200, channels: 3, background: "#c03030" },
  })
    .png()
    .toBuffer();
  // The seed's racers have no Picture value: a First-Last file gives them one.
  const stored = await storePortrait(h.db, {
    fileName: "Loic-Bruni.png",
    bytes,
    actor: CLI_ACTOR,
  });
  expect(stored.status).toBe("stored");
});
afterAll(() => h.close());

const get = (picture: string, query = "", headers: Record<string, string> = {}) =>
  loader({
    request: new Request(`http://localhost/img/racer_portrait/${picture}${query}`, { headers }),
    params: { picture },
    context: testContext(h.db),
  });

describe("GET /img/racer_portrait/{picture}", () => {
  it("serves the stored thumbnail as WebP with long cache headers and a strong ETag", async () => {
    const res = await get("loic-bruni.webp");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("image/webp");
    expect(res.headers.get("Cache-Control")).toBe(PORTRAIT_CACHE_CONTROL);
    expect(res.headers.get("Cache-Control")).toMatch(/max-age=86400/);
    const etag = res.headers.get("ETag")!;
    expect(etag).toMatch(/^"[\w-]+-t"$/);
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: "webp", width: 128, height: 128 });
  });

  it("serves the large square with ?size=large, under its own ETag", async () => {
    const res = await get("loic-bruni.webp", "?size=large");
    expect(res.status).toBe(200);
    expect(res.headers.get("ETag")).toMatch(/-l"$/);
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect(meta.width).toBe(480);
  });

  it("answers 304 to a matching If-None-Match, 200 to a stale one", async () => {
    const etag = (await get("loic-bruni.webp")).headers.get("ETag")!;
    const fresh = await get("loic-bruni.webp", "", { "If-None-Match": etag });
    expect(fresh.status).toBe(304);
    expect(await fresh.text()).toBe("");
    expect(fresh.headers.get("Cache-Control")).toBe(PORTRAIT_CACHE_CONTROL);
    const stale = await get("loic-bruni.webp", "", { "If-None-Match": '"old-t"' });
    expect(stale.status).toBe(200);
  });

  it("is a 404 for an unknown picture, briefly cached", async () => {
    const res = await get("nobody.jpg");
    expect(res.status).toBe(404);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/plain/);
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=60");
    expect((await get("x".repeat(400))).status).toBe(404);
  });
});
