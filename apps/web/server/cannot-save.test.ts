// The built app (`node build/server.js`) on a database whose disk is full: the database itself refuses
// the writes (a trigger raising SQLSTATE 53100, set up in the test's own data folder before the
// app starts). Saves are answered 503 "We cannot save right now, try again in a minute" with
// Retry-After, and the log has one line for the admin (docs/decisions/0150-abuse-proof-load.md).
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createAccount, createDb, createSession, listTeamRacers, seed } from "@game/db";
import { createCookie } from "@remix-run/node";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnApp } from "./spawn-app.test-support.js";

const SECRET = "cannot-save-test-secret-0123456789";
const MESSAGE = "We cannot save right now, try again in a minute";
const running = new Set<ChildProcessWithoutNullStreams>();
let dataDir: string;
let base: string;
let app: ReturnType<typeof spawnApp>;
let cookie: string;
let team: string[];

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "gf-full-"));
  // The app below runs on the embedded database in dataDir, whatever DATABASE_URL the tests run
  // with: prepare that one ("" means embedded).
  const h = await createDb({ url: "", dataDir });
  try {
    await seed(h.db);
    const user = await createAccount(h.db, {
      email: "full-disk@example.com",
      username: "Full_Disk",
      passwordHash: "test:unusable",
    });
    const { token } = await createSession(h.db, user.id);
    const signed = createCookie("gf_session", { path: "/", sameSite: "lax", secrets: [SECRET] });
    cookie = (await signed.serialize(token)).split(";")[0]!;
    const racers = await listTeamRacers(h.db, 5);
    const pick = (category: string, k: number) =>
      racers
        .filter((r) => r.category === category)
        .sort((a, b) => a.price - b.price)
        .slice(0, k)
        .map((r) => String(r.id));
    team = [...pick("Pro Women", 2), ...pick("17-18 Men", 1), ...pick("Pro Men", 3)];
    // From here on, every write to these tables fails as on a full disk.
    await h.db.execute(
      sql.raw(`create function gf_test_disk_full() returns trigger language plpgsql as $$
        begin raise exception 'could not extend file: No space left on device'
          using errcode = '53100'; end $$`),
    );
    for (const table of ["teams", "accounts"]) {
      await h.db.execute(
        sql.raw(`create trigger gf_test_disk_full before insert or update on ${table}
          for each statement execute function gf_test_disk_full()`),
      );
    }
  } finally {
    await h.close();
  }
  app = spawnApp({ DATABASE_URL: undefined, DATA_DIR: dataDir, SESSION_SECRET: SECRET }, running);
  base = `http://127.0.0.1:${await app.port}`;
}, 120_000);
afterAll(() => {
  for (const child of running) child.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

function post(
  pathname: string,
  fields: Record<string, string | string[]>,
  headers: Record<string, string> = {},
) {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) {
    for (const item of Array.isArray(v) ? v : [v]) body.append(k, item);
  }
  return fetch(`${base}${pathname}`, {
    method: "POST",
    headers: {
      Origin: base,
      "Content-Type": "application/x-www-form-urlencoded",
      ...headers,
    },
    body,
    redirect: "manual",
  });
}

describe("saving while the database's disk is full", () => {
  it("answers a team save 503 with the message and Retry-After, the page and the data request alike", async () => {
    const form = { intent: "save", game: "5", racer: team };
    const page = await post("/team-setup?game=5", form, { Cookie: cookie });
    expect(page.status).toBe(503);
    expect(page.headers.get("retry-after")).toBe("60");
    expect(await page.text()).toContain(MESSAGE);
    const data = await post("/team-setup.data?game=5", form, { Cookie: cookie });
    expect(data.status).toBe(503);
    expect(await data.text()).toContain(MESSAGE);
  });

  it("answers any other form post the same way (here a sign-up), not a generic 500", async () => {
    const res = await post("/signup", {
      email: "new-rider@example.com",
      username: "New_Rider",
      password: "fast-and-loose-enough",
    });
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("60");
    const html = await res.text();
    expect(html).toContain(MESSAGE);
    expect(html).not.toContain("Something went wrong");
  });

  it("logs one line an admin acts on, not one per refused save", () => {
    const lines = app
      .output()
      .split("\n")
      .filter((l) => l.includes("53100"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(
      "saves refused: the database is out of disk space (SQLSTATE 53100): free disk space on the database server or grow its volume",
    );
    expect(lines[0]).toContain("POST /team-setup");
  });
});
