/**
 * CI's PostgreSQL pass (`vitest.postgres.config.ts`) leaves out the db test files whose run does
 * not depend on `DATABASE_URL`: this keeps that list true, so no file that follows it is skipped
 * there (docs/decisions/0174).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { EMBEDDED_ONLY } from "../vitest.postgres.config";

const DB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const testFiles = readdirSync(path.join(DB, "src"), { recursive: true })
  .map((f) => `src/${String(f).split(path.sep).join("/")}`)
  .filter((f) => f.endsWith(".test.ts"));

/** Whether a test file's databases follow DATABASE_URL (or it reads the variable itself). */
function followsDatabaseUrl(file: string): boolean {
  if (file === "src/postgres-pass.test.ts") return false; // names what it looks for
  const source = readFileSync(path.join(DB, file), "utf8");
  return (
    /process\.env\.DATABASE_URL|createTestDb|openMigrationDb|cliTarget/.test(source) ||
    // createDb without an explicit engine follows DATABASE_URL.
    /createDb\(\s*\{(?![^}]*\burl:)/.test(source) ||
    /createDb\(\s*\)/.test(source)
  );
}

describe("the db tests CI runs again on PostgreSQL", () => {
  it("leave out only files that exist and never follow DATABASE_URL", () => {
    for (const file of EMBEDDED_ONLY) {
      expect(testFiles, file).toContain(file);
      expect(followsDatabaseUrl(file), file).toBe(false);
    }
  });

  it("keep every file that follows it (most of them)", () => {
    const follow = testFiles.filter(followsDatabaseUrl);
    expect(follow.length).toBeGreaterThan(40);
    for (const file of follow) expect(EMBEDDED_ONLY, file).not.toContain(file);
    for (const file of testFiles) {
      if (!EMBEDDED_ONLY.includes(file) && file !== "src/postgres-pass.test.ts") {
        expect(followsDatabaseUrl(file), file).toBe(true);
      }
    }
  });
});
