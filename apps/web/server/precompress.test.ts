import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { precompress } from "./precompress.js";
import { brotli, loadStaticFiles } from "./static-files.js";

const root = mkdtempSync(path.join(tmpdir(), "gf-precompress-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const script = `export const racers = [${Array.from({ length: 400 }, (_, i) => `{ id: ${i}, name: "rider ${i}", price: ${75_000 + i * 1000} }`).join(",")}];\n`;

describe("the build's brotli", () => {
  it("is written beside each text file it makes smaller, at the best quality, and sent for it", () => {
    mkdirSync(path.join(root, "assets"));
    const big = path.join(root, "assets", "app-Ab12.js");
    writeFileSync(big, script);
    writeFileSync(path.join(root, "assets", "tiny-Cd34.js"), "export {};\n");
    writeFileSync(path.join(root, "photo.png"), Buffer.alloc(4096, 7));

    const done = precompress(root);
    expect(done.files).toBe(1);
    // Only text that brotli makes smaller: not the tiny script, not the image.
    expect(existsSync(`${big}.br`)).toBe(true);
    expect(existsSync(path.join(root, "assets", "tiny-Cd34.js.br"))).toBe(false);
    expect(existsSync(path.join(root, "photo.png.br"))).toBe(false);
    const built = readFileSync(`${big}.br`);
    expect(brotliDecompressSync(built).toString()).toBe(script);
    // Smaller than what the server would make at start.
    expect(built.length).toBeLessThan(brotli(Buffer.from(script), 5).length);

    const files = loadStaticFiles(root);
    expect(files.get("/assets/app-Ab12.js")?.br?.equals(built)).toBe(true);
    // Sent for the file, never as a file of its own.
    expect(files.has("/assets/app-Ab12.js.br")).toBe(false);
  });

  it("is left aside when older than its file (a file changed after the build)", () => {
    const big = path.join(root, "assets", "app-Ab12.js");
    const past = new Date(Date.now() - 60_000);
    utimesSync(`${big}.br`, past, past);
    const served = loadStaticFiles(root).get("/assets/app-Ab12.js")?.br;
    expect(served?.equals(readFileSync(`${big}.br`))).toBe(false);
    expect(brotliDecompressSync(served!).toString()).toBe(script);
  });
});
