import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb, redactUrl, rowsOf } from "./client.js";
import { defaultDataDir } from "./paths.js";
import { events } from "./schema/index.js";
import { seed } from "./seed.js";
import { createTestDb } from "./testing.js";

describe("createDb", () => {
  it("gives a migrated database (PGlite in memory, or PostgreSQL with DATABASE_URL)", async () => {
    const h = await createTestDb();
    try {
      expect(h.kind).toBe(process.env.DATABASE_URL ? "postgres" : "pglite");
      const res = rowsOf<{ n: number }>(
        await h.db.execute(sql`select count(*)::int as n from ${events}`),
      );
      expect(res[0]!.n).toBe(0);
    } finally {
      await h.close();
    }
  });

  it("keeps embedded data in the data folder across restarts", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "gf-db-"));
    try {
      const a = await createDb({ dataDir: dir, url: "" });
      await seed(a.db);
      await a.close();
      const b = await createDb({ dataDir: dir, url: "" });
      const rows = await b.db.select().from(events);
      expect(rows).toHaveLength(12);
      await b.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // Two embedded databases started from disk, migrations included: slow on a busy machine.
  }, 120_000);

  it("finds the repository's data folder from any folder inside it", () => {
    const fromPkg = defaultDataDir(process.cwd());
    expect(fromPkg.endsWith(`${path.sep}data`)).toBe(true);
    expect(defaultDataDir(path.join(process.cwd(), "src"))).toBe(fromPkg);
  });

  it("hides the password of a database URL", () => {
    expect(redactUrl("postgres://u:secret@h:5432/db")).toBe("postgres://u:***@h:5432/db");
  });
});
