import { asc, eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import { racers } from "../schema/index.js";
import { insertSeedEvents } from "../seed.js";
import { createTestDb } from "../testing.js";
import { CLI_ACTOR, listAudit } from "./audit.js";
import {
  getPortrait,
  PORTRAIT_LARGE_PX,
  PORTRAIT_THUMB_PX,
  PortraitError,
  portraitSlug,
  portraitsStored,
  processPortrait,
  sniffImageFormat,
  storePortrait,
} from "./portraits.js";
import { importRacers } from "./racers-import.js";

/** A real image of the given format, drawn by sharp (not a fixture that could go stale). */
function image(format: "png" | "jpeg" | "webp", width = 200, height = 150): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: "#3366aa" } })
    .toFormat(format)
    .toBuffer();
}

let h: DbHandle;
beforeAll(async () => {
  h = await createTestDb();
  await insertSeedEvents(h.db, [5, 6]);
  await importRacers(h.db, {
    csv: [
      "Game ID,Category,First Name,Last Name,Origin,Picture",
      "5,Pro Men,Loïc,Bruni,FRA,",
      "6,Pro Men,Loïc,Bruni,FRA,",
      "5,Pro Men,Amaury,Pierron,FRA,amaury_pierron.jpg",
      "6,Pro Men,Amaury,Pierron,FRA,amaury_pierron.jpg",
      "5,Pro Women,Vali,Höll,AUT,",
    ].join("\n"),
    actor: CLI_ACTOR,
  });
});
afterAll(() => h.close());

describe("processPortrait", () => {
  it("takes PNG, JPEG and WebP by content and makes two WebP squares", async () => {
    for (const format of ["png", "jpeg", "webp"] as const) {
      const done = await processPortrait(await image(format));
      expect(done.format).toBe(format);
      for (const [bytes, px] of [
        [done.thumb, PORTRAIT_THUMB_PX],
        [done.large, PORTRAIT_LARGE_PX],
      ] as const) {
        const meta = await sharp(bytes).metadata();
        expect(meta).toMatchObject({ format: "webp", width: px, height: px });
      }
      expect(done.etag).toMatch(/^[\w-]{27}$/);
    }
  });

  it("refuses text named .jpg, GIFs, empty, tiny, truncated and oversized files, with why", async () => {
    const refused = async (bytes: Uint8Array) => {
      const error = await processPortrait(bytes).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PortraitError);
      return (error as Error).message;
    };
    expect(await refused(Buffer.from("not really a picture\n"))).toMatch(
      /Not a PNG, JPEG or WebP image/,
    );
    const gif = await sharp({ create: { width: 80, height: 80, channels: 3, background: "#000" } })
      .gif()
      .toBuffer();
    expect(await refused(gif)).toMatch(/Not a PNG, JPEG or WebP/);
    expect(await refused(new Uint8Array())).toMatch(/empty/);
    expect(await refused(await image("png", 40, 300))).toMatch(/too small \(40 x 300 px\)/);
    const png = await image("png");
    expect(await refused(png.subarray(0, 40))).toMatch(/could not be read/);
    expect(await refused(new Uint8Array(5 * 1024 * 1024 + 1))).toMatch(/larger than 5 MB/);
  });

  it("sniffs the format from the first bytes only", async () => {
    expect(sniffImageFormat(await image("png"))).toBe("png");
    expect(sniffImageFormat(await image("jpeg"))).toBe("jpeg");
    expect(sniffImageFormat(await image("webp"))).toBe("webp");
    expect(sniffImageFormat(Buffer.from("RIFF1234WAVE"))).toBeNull();
  });
});

describe("portraitSlug", () => {
  it("ignores accents, case and separators", () => {
    expect(portraitSlug("Loïc Bruni")).toBe("loic-bruni");
    expect(portraitSlug("LOIC_bruni")).toBe("loic-bruni");
    expect(portraitSlug("Vali-Höll")).toBe(portraitSlug("vali hoell".replace("oe", "o")));
  });
});

describe("storePortrait", () => {
  it("matches by Picture value, stores both sizes once for every event, and audits", async () => {
    const r = await storePortrait(h.db, {
      fileName: "amaury_pierron.jpg",
      bytes: await image("jpeg"),
      actor: CLI_ACTOR,
    });
    expect(r).toMatchObject({
      status: "stored",
      matchedBy: "picture",
      pictures: ["amaury_pierron.jpg"],
      picturesSet: 0,
    });
    expect(r.racers.map((x) => x.gameId)).toEqual([5, 6]);
    const thumb = await getPortrait(h.db, "amaury_pierron.jpg");
    const large = await getPortrait(h.db, "amaury_pierron.jpg", "large");
    expect((await sharp(thumb!.bytes).metadata()).width).toBe(PORTRAIT_THUMB_PX);
    expect((await sharp(large!.bytes).metadata()).width).toBe(PORTRAIT_LARGE_PX);
    expect(thumb!.etag).toBe(large!.etag);
    const { rows } = await listAudit(h.db, { action: "racer.portrait" });
    expect(rows[0]).toMatchObject({ actor: "cli", target: "picture:amaury_pierron.jpg" });
  });

  it("matches First-Last.jpg by name (accents ignored) and gives the racers a Picture value", async () => {
    const r = await storePortrait(h.db, {
      fileName: "Loic-Bruni.PNG",
      bytes: await image("png"),
      actor: CLI_ACTOR,
    });
    expect(r).toMatchObject({ status: "stored", matchedBy: "name", pictures: ["loic-bruni.webp"] });
    expect(r.picturesSet).toBe(2);
    const rows = await h.db
      .select({ picture: racers.picture })
      .from(racers)
      .where(eq(racers.lastName, "Bruni"))
      .orderBy(asc(racers.gameId));
    expect(rows).toEqual([{ picture: "loic-bruni.webp" }, { picture: "loic-bruni.webp" }]);
    expect(await getPortrait(h.db, "loic-bruni.webp")).not.toBeNull();
    // The same file again replaces the image and keeps the name.
    const again = await storePortrait(h.db, {
      fileName: "loic-bruni.webp",
      bytes: await image("webp", 300, 300),
      actor: CLI_ACTOR,
    });
    expect(again).toMatchObject({ status: "stored", matchedBy: "picture", picturesSet: 0 });
  });

  it("skips unknown names and bad content with the reason, and a dry run writes nothing", async () => {
    const unknown = await storePortrait(h.db, {
      fileName: "Nobody-Here.jpg",
      bytes: await image("jpeg"),
      actor: CLI_ACTOR,
    });
    expect(unknown).toMatchObject({ status: "skipped", racers: [] });
    expect(unknown.reason).toMatch(/No racer has this Picture value or this name/);
    const fake = await storePortrait(h.db, {
      fileName: "Vali-Holl.jpg",
      bytes: Buffer.from("hello, I am text"),
      actor: CLI_ACTOR,
    });
    expect(fake).toMatchObject({ status: "skipped", matchedBy: "name" });
    expect(fake.reason).toMatch(/Not a PNG, JPEG or WebP/);
    const dry = await storePortrait(h.db, {
      fileName: "Vali-Holl.jpg",
      bytes: await image("jpeg"),
      actor: CLI_ACTOR,
      dryRun: true,
    });
    expect(dry).toMatchObject({ status: "stored", pictures: ["vali-holl.webp"], picturesSet: 1 });
    expect(await getPortrait(h.db, "vali-holl.webp")).toBeNull();
    const [holl] = await h.db.select().from(racers).where(eq(racers.lastName, "Höll"));
    expect(holl!.picture).toBeNull();
    expect(await portraitsStored(h.db, ["vali-holl.webp", "loic-bruni.webp"])).toEqual(
      new Set(["loic-bruni.webp"]),
    );
  });
});
