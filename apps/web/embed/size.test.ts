import { describe, expect, it } from "vitest";
import { BUDGET_BYTES, buildEmbed } from "./build.mjs";

describe("the script-tag embed", () => {
  it(`stays within ${BUDGET_BYTES / 1024} KB gzip with every widget in it`, async () => {
    const { code, gzipBytes } = await buildEmbed();
    const text = new TextDecoder().decode(code);
    // Preact stands in for React: React's own runtime would not fit.
    expect(text).not.toContain("react.production");
    expect(text).not.toContain("__SECRET_INTERNALS");
    for (const tag of [
      "gf-racer-table",
      "gf-player-rankings",
      "gf-league-rankings",
      "gf-team-grid",
      "gf-team-builder",
    ]) {
      expect(text).toContain(tag);
    }
    expect(text).toContain("--gf-default-color-accent");
    console.log(`embed: ${(gzipBytes / 1024).toFixed(2)} KB gzip of ${BUDGET_BYTES / 1024} KB`);
    expect(gzipBytes).toBeLessThanOrEqual(BUDGET_BYTES);
  });
});
