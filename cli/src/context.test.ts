import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { currentActor, inputPath } from "./context.js";

describe("currentActor", () => {
  it("names the OS user who runs the CLI", () => {
    expect(currentActor(() => ({ username: "alice" }))).toEqual({
      actor: "cli:alice",
      actorId: null,
    });
    let expected = "cli";
    try {
      expected = `cli:${os.userInfo().username}`;
    } catch {}
    expect(currentActor().actor).toBe(expected);
  });

  it("falls back to plain cli when the system cannot say who it is", () => {
    const noPasswdEntry = () => {
      throw Object.assign(new Error("uv_os_get_passwd returned ENOENT"), { code: "ENOENT" });
    };
    expect(currentActor(noPasswdEntry)).toEqual({ actor: "cli", actorId: null });
    expect(currentActor(() => ({ username: "" }))).toEqual({ actor: "cli", actorId: null });
  });
});

describe("inputPath", () => {
  const where = path.resolve("/users/alice/results");

  it("resolves a relative path against INIT_CWD, where npm was started", () => {
    expect(inputPath("round-1.csv", { INIT_CWD: where })).toBe(path.join(where, "round-1.csv"));
    expect(inputPath("../r.csv", { INIT_CWD: where })).toBe(path.resolve(where, "../r.csv"));
  });

  it("falls back to the working directory without INIT_CWD", () => {
    expect(inputPath("round-1.csv", {})).toBe(path.resolve(process.cwd(), "round-1.csv"));
    expect(inputPath("round-1.csv", { INIT_CWD: "" })).toBe(
      path.resolve(process.cwd(), "round-1.csv"),
    );
  });

  it("leaves an absolute path alone", () => {
    const file = path.resolve("/tmp/round-1.csv");
    expect(inputPath(file, { INIT_CWD: where })).toBe(file);
  });
});
