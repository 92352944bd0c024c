import os from "node:os";
import { describe, expect, it } from "vitest";
import { currentActor } from "./context.js";

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
