import { describe, expect, it } from "vitest";
import {
  cookieValue,
  etagMatches,
  pageNonce,
  rankingVersionReader,
  strongEtag,
} from "./ranking-cache.js";

describe("rankingVersionReader", () => {
  it("reads at most once per interval, one read shared by the requests meanwhile", async () => {
    let t = 0;
    let reads = 0;
    const versions = rankingVersionReader(
      async () => {
        reads += 1;
        return { players: reads, leagues: reads };
      },
      { ttlMs: 1000, now: () => t },
    );
    const [a, b] = await Promise.all([versions(), versions()]);
    expect(a).toEqual({ players: 1, leagues: 1 });
    expect(b).toBe(a);
    t = 999;
    expect((await versions()).players).toBe(1);
    t = 1000;
    expect((await versions()).players).toBe(2);
    expect(reads).toBe(2);
  });

  it("does not remember a failed read", async () => {
    let fail = true;
    const versions = rankingVersionReader(
      async () => {
        if (fail) throw new Error("down");
        return { players: 7, leagues: 7 };
      },
      { ttlMs: 60_000, now: () => 0 },
    );
    await expect(versions()).rejects.toThrow("down");
    fail = false;
    expect((await versions()).players).toBe(7);
  });
});

describe("cache keys, ETags and nonces", () => {
  it("finds a cookie by its exact name", () => {
    expect(cookieValue("a=1; gf_session=xyz; b=2", "gf_session")).toBe("xyz");
    expect(cookieValue("gf_session_old=1", "gf_session")).toBeUndefined();
    expect(cookieValue(undefined, "gf_session")).toBeUndefined();
  });

  it("an ETag and a nonce depend on the key and on the secret, and reveal neither", () => {
    const e = strongEtag("s1", "players:3|/players-ranking");
    expect(e).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(e).not.toContain("players");
    expect(strongEtag("s1", "players:4|/players-ranking")).not.toBe(e);
    expect(strongEtag("s2", "players:3|/players-ranking")).not.toBe(e);
    const n = pageNonce("s1", "players:3|/players-ranking");
    expect(Buffer.from(n, "base64")).toHaveLength(16);
    expect(pageNonce("s1", "players:4|/players-ranking")).not.toBe(n);
  });

  it("If-None-Match: a list, weak forms and * match; another tag does not", () => {
    expect(etagMatches('"x", "abc"', '"abc"')).toBe(true);
    expect(etagMatches('W/"abc"', '"abc"')).toBe(true);
    expect(etagMatches("*", '"abc"')).toBe(true);
    expect(etagMatches('"abd"', '"abc"')).toBe(false);
    expect(etagMatches(undefined, '"abc"')).toBe(false);
  });
});
