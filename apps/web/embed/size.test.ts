import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { BUDGET_BYTES, buildEmbed, TARGET_BYTES, WIDGETS } from "./build.mjs";

/**
 * In gzip (what a browser that does not take brotli gets), the racer table is over the 14 KB
 * target (decision 0177 says by what) and the player rankings sit on it since the hello brought
 * the data (0182): these ceilings keep them from growing. As served in brotli both meet the target
 * (decision 0181) with room to spare.
 */
const OVER_TARGET_GZIP: Record<string, number> = {
  "gf-racer-table": 15_500,
  "gf-player-rankings": 14_450,
};

const kb = (n: number) => `${(n / 1024).toFixed(2)} KB`;

interface Built {
  files: Map<string, Uint8Array>;
  chunks: Record<string, string>;
  perElement: Record<string, { files: string[]; gzipBytes: number; brotliBytes: number }>;
  totalGzipBytes: number;
  loader: Uint8Array;
}

describe("the script-tag embed", () => {
  it(`loads at most ${BUDGET_BYTES / 1024} KB gzip on a page using any one element`, async () => {
    const { files, chunks, perElement, totalGzipBytes, loader } = (await buildEmbed()) as Built;
    const text = (name: string) => new TextDecoder().decode(files.get(name));
    const all = [...files.keys()].map(text).join("\n");
    // Preact stands in for React, without its compat layer: neither would fit.
    expect(all).not.toContain("react.production");
    expect(all).not.toContain("__SECRET_INTERNALS");
    expect(all).not.toContain("__GF_CSS__");

    // The loader is small, framework-free, and knows every element's module.
    const loaderText = new TextDecoder().decode(loader);
    expect(gzipSync(loader).length).toBeLessThan(1.5 * 1024);
    for (const tag of Object.keys(WIDGETS)) {
      expect(loaderText).toContain(tag);
      expect(loaderText).toContain(chunks[tag]!);
      expect(files.has(chunks[tag]!)).toBe(true);
    }
    expect(loaderText).toContain("origin not allowed: ask the game's admin to add");

    // Each widget module carries its own CSS, with the partner-overridable tokens (the ones it
    // reads: every widget has text, not every one an accent).
    for (const tag of Object.keys(WIDGETS)) {
      expect(text(chunks[tag]!)).toContain("--gf-default-color-text");
    }
    // ...and only the rules it can use: the racer table has tabs, the team grid has none.
    expect(text(chunks["gf-racer-table"]!)).toContain(".gf-tab");
    expect(text(chunks["gf-team-grid"]!)).not.toContain(".gf-tab[");
    expect(text(chunks["gf-team-grid"]!)).toContain(".gf-slot");
    // No element shows the racer table's action column: neither its button nor its tooltip's
    // rules are in the embed (no-action-button.ts).
    expect(all).not.toContain("gf-tip");
    expect(all).not.toContain("aria-describedby");

    for (const [tag, { gzipBytes, brotliBytes, files: loads }] of Object.entries(perElement)) {
      console.log(
        `embed: <${tag}> ${kb(brotliBytes)} brotli, ${kb(gzipBytes)} gzip (${loads.length} files)`,
      );
      expect(gzipBytes, tag).toBeLessThanOrEqual(BUDGET_BYTES);
      expect(brotliBytes, `${tag} in brotli (target ${TARGET_BYTES})`).toBeLessThanOrEqual(
        TARGET_BYTES,
      );
      expect(gzipBytes, `${tag} in gzip (target ${TARGET_BYTES})`).toBeLessThanOrEqual(
        OVER_TARGET_GZIP[tag] ?? TARGET_BYTES,
      );
      // One shared chunk (Preact, the runtime, the API client) and the widget's own file.
      expect(loads.length, tag).toBeLessThanOrEqual(3);
    }
    console.log(`embed: every file ${kb(totalGzipBytes)} gzip`);
  });
});
