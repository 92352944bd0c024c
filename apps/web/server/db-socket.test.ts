import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  connectionForDataDir,
  createDb,
  type DbHandle,
  dbSocketFile,
  publicUrlForDataDir,
} from "@game/db";
import { afterAll, describe, expect, it } from "vitest";
import { serveDbSocket } from "./db-socket.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("serveDbSocket (server)", () => {
  it("serves an embedded database folder and cleans up on close", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "gf-web-socket-"));
    dirs.push(dataDir);
    const handle = await createDb({ url: "", dataDir, migrate: false });
    const served = await serveDbSocket(handle, { dataDir });
    expect(connectionForDataDir(dataDir)).toMatch(
      /^postgres:\/\/postgres:[^@]+@127\.0\.0\.1:\d+\//,
    );
    served.publish({ publicUrl: "http://localhost:4101" });
    expect(publicUrlForDataDir(dataDir)).toBe("http://localhost:4101");
    await served.close();
    expect(existsSync(dbSocketFile(dataDir))).toBe(false);
    await handle.close();
  });

  it("does nothing for PostgreSQL or an in-memory database", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "gf-web-socket-"));
    dirs.push(dataDir);
    // Stand-ins: only what serveDbSocket reads of a handle.
    const pg = { kind: "postgres", location: "postgres://x", close: async () => {} } as DbHandle;
    const onPg = await serveDbSocket(pg, { dataDir });
    onPg.publish({ publicUrl: "http://localhost:4101" });
    await onPg.close();
    const memory = {
      kind: "pglite",
      pglite: {},
      location: "memory",
      close: async () => {},
    } as DbHandle;
    await (await serveDbSocket(memory, { dataDir })).close();
    expect(existsSync(dbSocketFile(dataDir))).toBe(false);
  });
});
