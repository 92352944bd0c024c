/**
 * CI's PostgreSQL pass (`vitest.postgres.config.ts`) runs again only the web test files whose run
 * depends on `DATABASE_URL`: this keeps its list whole, and free of files that would repeat
 * themselves (docs/decisions/0173).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { POSTGRES_PASS } from "../vitest.postgres.config";

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const testFiles = (dir: string) =>
  readdirSync(path.join(WEB, dir), { recursive: true })
    .map((f) => path.join(dir, String(f)).split(path.sep).join("/"))
    .filter((f) => /\.test\.tsx?$/.test(f) && !f.endsWith(".production.test.ts"));

/** Whether a test file's run changes with DATABASE_URL. */
function readsDatabaseUrl(file: string): boolean {
  if (file === "server/postgres-pass.test.ts") return false; // names what it looks for
  const source = readFileSync(path.join(WEB, file), "utf8");
  // Its own database from DATABASE_URL, or a server given it.
  if (/process\.env\.DATABASE_URL/.test(source)) return true;
  // An in-process test database follows DATABASE_URL too; under app/ that is @game/db's own
  // behaviour, which its tests run on PostgreSQL, so only the server's count.
  return file.startsWith("server/") && source.includes('"@game/db/testing"');
}

describe("the web tests CI runs again on PostgreSQL", () => {
  it("are every server test file whose run depends on DATABASE_URL", () => {
    const depend = [...testFiles("server"), ...testFiles("app")].filter(readsDatabaseUrl);
    expect(depend.length).toBeGreaterThan(5);
    for (const file of depend) expect(POSTGRES_PASS, file).toContain(file);
  });

  it("name only files that exist and depend on it (the two commands read it for the build's hash)", () => {
    const all = new Set([...testFiles("server"), ...testFiles("app")]);
    for (const file of POSTGRES_PASS) {
      expect(all.has(file), file).toBe(true);
      if (file !== "app/two-commands.test.ts") expect(readsDatabaseUrl(file), file).toBe(true);
    }
  });
});
