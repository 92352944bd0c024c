import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  burnPasswordCheck,
  hashPassword,
  needsRehash,
  SCRYPT_PARAMS,
  verifyPassword,
} from "./password.server";

// Property runs use a small cost so they stay fast; the format and checks are the same.
const cheap = { N: 2 ** 10, r: 8, p: 1 };

describe("password hashing", () => {
  it("uses scrypt at the recommended cost with a 16-byte salt and a 64-byte key", async () => {
    expect(SCRYPT_PARAMS).toEqual({ N: 131072, r: 8, p: 1 });
    const stored = await hashPassword("correct horse battery");
    const [name, N, r, p, salt, key] = stored.split("$");
    expect([name, N, r, p]).toEqual(["scrypt", "131072", "8", "1"]);
    expect(Buffer.from(salt!, "base64url")).toHaveLength(16);
    expect(Buffer.from(key!, "base64url")).toHaveLength(64);
    expect(await verifyPassword("correct horse battery", stored)).toBe(true);
    expect(await verifyPassword("correct horse batterY", stored)).toBe(false);
    expect(needsRehash(stored)).toBe(false);
  });

  it("salts every hash", async () => {
    const [a, b] = await Promise.all([hashPassword("same", cheap), hashPassword("same", cheap)]);
    expect(a).not.toBe(b);
  });

  it("accepts exactly the password it was made from (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 40 }),
        fc.string({ maxLength: 40 }),
        async (pw, other) => {
          const stored = await hashPassword(pw, cheap);
          expect(await verifyPassword(pw, stored)).toBe(true);
          if (other.normalize("NFKC") !== pw.normalize("NFKC")) {
            expect(await verifyPassword(other, stored)).toBe(false);
          }
        },
      ),
      { numRuns: 30 },
    );
  });

  it("flags weaker hashes for re-hashing and refuses unreadable or tampered ones", async () => {
    const weak = await hashPassword("pw", cheap);
    expect(needsRehash(weak)).toBe(true);
    expect(await verifyPassword("pw", weak)).toBe(true);
    for (const bad of ["", "test:unusable", "scrypt$1$8$1$x$y", weak.replace("$1024$", "$1000$")]) {
      expect(await verifyPassword("pw", bad)).toBe(false);
      expect(needsRehash(bad)).toBe(true);
    }
    // A row asking for an absurd cost is refused rather than run.
    const greedy = weak.replace("$1024$", `$${2 ** 24}$`);
    expect(await verifyPassword("pw", greedy)).toBe(false);
  });

  it("spends a full check on an unknown account and never says yes", async () => {
    const started = performance.now();
    await hashPassword("x");
    const oneHash = performance.now() - started;
    await burnPasswordCheck("warm-up");
    const t0 = performance.now();
    expect(await burnPasswordCheck("anything")).toBe(false);
    // Same cost as a real check: far more than the microseconds a plain "not found" takes.
    expect(performance.now() - t0).toBeGreaterThan(oneHash * 0.3);
  });
});
