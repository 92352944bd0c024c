import { describe, expect, it, vi } from "vitest";
import { processRole } from "./cluster.js";

describe("processRole", () => {
  it("is one process unless several are asked for on PostgreSQL", () => {
    const warn = vi.fn();
    const pg = "postgres://app@db:5432/game";
    expect(processRole({ webConcurrency: 1, databaseUrl: pg }, { isWorker: false, warn })).toBe(
      "single",
    );
    expect(processRole({ webConcurrency: 4, databaseUrl: pg }, { isWorker: false, warn })).toBe(
      "primary",
    );
    expect(processRole({ webConcurrency: 4, databaseUrl: pg }, { isWorker: true, warn })).toBe(
      "worker",
    );
    expect(warn).not.toHaveBeenCalled();
  });

  it("stays one process on the embedded database, with one warning line", () => {
    const warn = vi.fn();
    expect(processRole({ webConcurrency: 2 }, { isWorker: false, warn })).toBe("single");
    expect(warn.mock.calls).toEqual([
      [
        "WEB_CONCURRENCY=2 ignored: the embedded database runs in one process. Set DATABASE_URL (PostgreSQL) to run several.",
      ],
    ]);
  });
});
