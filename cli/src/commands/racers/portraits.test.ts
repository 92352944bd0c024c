import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { getPortrait, listAudit, racers, seed } from "@game/db";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliTarget, cliTarget, runCli } from "../../test-support.js";

let t: CliTarget;
let folder: string;

/** A real image drawn by sharp, so the check by content meets what a camera or editor writes. */
const draw = (format: "png" | "jpeg" | "webp", background: string) =>
  sharp({ create: { width: 240, height: 180, channels: 3, background } })
    .toFormat(format)
    .toBuffer();

beforeAll(async () => {
  t = await cliTarget({ hold: true });
  await seed(t.h!.db);
  // One racer with a Picture value, to match a file by it.
  await t.h!.db.update(racers).set({ picture: "vali_holl.png" }).where(eq(racers.lastName, "Höll"));
  folder = path.join(t.dir, "portraits");
  mkdirSync(folder);
  writeFileSync(path.join(folder, "Loic-Bruni.jpg"), await draw("jpeg", "#204080"));
  writeFileSync(path.join(folder, "vali_holl.png"), await draw("png", "#802040"));
  writeFileSync(path.join(folder, "amaury_pierron.webp"), await draw("webp", "#408020"));
  // Named like a JPEG, but text: refused by its content.
  writeFileSync(path.join(folder, "Jackson-Goldstone.jpg"), "this is not an image\n");
  writeFileSync(path.join(folder, "Nobody-Known.png"), await draw("png", "#000000"));
  writeFileSync(path.join(folder, ".DS_Store"), "junk");
}, 60_000);
afterAll(() => t?.close());

describe("racers portraits <folder>", () => {
  it("a dry run says per file what would happen and writes nothing", async () => {
    const r = await runCli(t, "racers", "portraits", folder, "--dry-run");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      "Loic-Bruni.jpg: would be stored for Loïc Bruni (1 entry, by name) as loic-bruni.webp; Picture set on 1",
    );
    expect(r.stdout).toMatch(
      /\[\d\/5\] vali_holl\.png: would be stored for Valentina Höll .*by Picture value/,
    );
    expect(r.stdout).toMatch(/Jackson-Goldstone\.jpg: skipped: Not a PNG, JPEG or WebP image/);
    expect(r.stdout).toMatch(
      /Nobody-Known\.png: skipped: No racer has this Picture value or this name/,
    );
    expect(r.stdout).not.toContain(".DS_Store");
    expect(r.stdout).toContain("Dry run (nothing written): 5 files: 3 would be stored, 2 skipped.");
    expect(await getPortrait(t.h!.db, "loic-bruni.webp")).toBeNull();
  });

  it("stores the images, by Picture value or First-Last, prints JSON, and audits", async () => {
    const r = await runCli(t, "racers", "portraits", folder, "--json");
    expect(r.code, r.stderr).toBe(0);
    // Progress goes to stderr, so stdout is only the JSON.
    expect(r.stderr).toContain("[1/5]");
    const out = JSON.parse(r.stdout) as {
      stored: number;
      skipped: number;
      files: { file: string; status: string; pictures: string[] }[];
    };
    expect(out).toMatchObject({ stored: 3, skipped: 2 });
    expect(out.files.filter((f) => f.status === "stored").map((f) => f.pictures[0])).toEqual(
      expect.arrayContaining(["loic-bruni.webp", "vali_holl.png", "amaury-pierron.webp"]),
    );
    for (const picture of ["loic-bruni.webp", "vali_holl.png", "amaury-pierron.webp"]) {
      const thumb = await getPortrait(t.h!.db, picture);
      expect(await sharp(thumb!.bytes).metadata(), picture).toMatchObject({
        format: "webp",
        width: 128,
        height: 128,
      });
    }
    const [bruni] = await t.h!.db.select().from(racers).where(eq(racers.lastName, "Bruni"));
    expect(bruni!.picture).toBe("loic-bruni.webp");
    const { rows } = await listAudit(t.h!.db, { action: "racer.portrait" });
    expect(rows).toHaveLength(3);
    expect(rows[0]!.actor).toMatch(/^cli/);
  });

  it("exits 1 when nothing could be stored, 2 for usage, 1 for a missing folder", async () => {
    const bad = path.join(t.dir, "bad");
    mkdirSync(bad);
    writeFileSync(path.join(bad, "Loic-Bruni.jpg"), "text, not a JPEG");
    const none = await runCli(t, "racers", "portraits", bad);
    expect(none.code).toBe(1);
    expect(none.stdout).toContain("Loic-Bruni.jpg: skipped: Not a PNG, JPEG or WebP image");
    expect(none.stderr).toMatch(/no file in .* could be stored/);
    expect((await runCli(t, "racers", "portraits")).code).toBe(2);
    expect((await runCli(t, "racers", "portraits", path.join(folder, "vali_holl.png"))).code).toBe(
      2,
    );
    expect((await runCli(t, "racers", "portraits", path.join(t.dir, "missing"))).code).toBe(1);
  });
});
