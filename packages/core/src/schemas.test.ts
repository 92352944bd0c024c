import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  CREDENTIALS_REQUIRED,
  firstIssue,
  inviteEmailSchema,
  leagueNameSchema,
  logInSchema,
  normalizeEmail,
  signUpSchema,
  teamSelectionSchema,
  usernameSchema,
} from "./schemas.js";

/** All messages of a failed parse (fails the test when the parse succeeds). */
function messages(schema: z.ZodType, input: unknown): string[] {
  const r = schema.safeParse(input);
  expect(r.success).toBe(false);
  return r.success ? [] : r.error.issues.map((i) => i.message);
}

describe("logInSchema", () => {
  it("uses the spec's message", () => {
    expect(CREDENTIALS_REQUIRED).toBe("Email and password are required");
  });

  it.each([
    ["empty e-mail", { email: "", password: "secret" }],
    ["blank e-mail", { email: "   ", password: "secret" }],
    ["missing e-mail", { password: "secret" }],
    ["null e-mail", { email: null, password: "secret" }],
    ["empty password", { email: "a@b.co", password: "" }],
    ["missing password", { email: "a@b.co" }],
    ["both empty", { email: "", password: "" }],
    ["both missing", {}],
  ])("gives exactly 'Email and password are required' for %s", (_, input) => {
    const msgs = messages(logInSchema, input);
    expect(msgs.length).toBeGreaterThan(0);
    expect(new Set(msgs)).toEqual(new Set([CREDENTIALS_REQUIRED]));
    const r = logInSchema.safeParse(input);
    expect(!r.success && firstIssue(r.error)).toBe(CREDENTIALS_REQUIRED);
  });

  it("trims and lower-cases the e-mail, and keeps the password as typed", () => {
    expect(logInSchema.parse({ email: "  Foo.Bar@Example.COM ", password: " Pa ss " })).toEqual({
      email: "foo.bar@example.com",
      password: " Pa ss ",
    });
  });

  it("refuses a malformed e-mail with a clear message", () => {
    for (const email of ["nope", "a@", "@b.co", "a b@c.co", "a@b"]) {
      expect(messages(logInSchema, { email, password: "secret" })).toEqual([
        "Enter a valid e-mail address.",
      ]);
    }
  });

  it("refuses an over-long e-mail", () => {
    const email = `${"a".repeat(250)}@b.co`;
    expect(messages(logInSchema, { email, password: "secret" })).toContain(
      "That e-mail address is too long.",
    );
  });

  it("property: any e-mail it accepts comes out trimmed and lower-case", () => {
    fc.assert(
      fc.property(
        fc.emailAddress(),
        fc.constantFrom("", " ", "  \t"),
        fc.boolean(),
        (email, pad, upper) => {
          const typed = `${pad}${upper ? email.toUpperCase() : email}${pad}`;
          const r = logInSchema.safeParse({ email: typed, password: "x" });
          if (r.success) {
            expect(r.data.email).toBe(r.data.email.trim().toLowerCase());
            expect(r.data.email).toBe(normalizeEmail(typed));
          }
        },
      ),
    );
  });
});

describe("signUpSchema", () => {
  const ok = { username: "rider_1", email: "Rider@Example.com", password: "longenough" };

  it("accepts a username, e-mail and a password of 10+ characters", () => {
    expect(signUpSchema.parse(ok)).toEqual({ ...ok, email: "rider@example.com" });
    expect(signUpSchema.safeParse({ ...ok, password: "berm-12345" }).success).toBe(true);
  });

  it("refuses a short, blank or common password with the policy's message", () => {
    expect(messages(signUpSchema, { ...ok, password: "berm-1234" })).toEqual([
      "Use at least 10 characters for your password.",
    ]);
    expect(messages(signUpSchema, { ...ok, password: " ".repeat(8) })).toEqual([
      "A password cannot be only spaces.",
    ]);
    expect(messages(signUpSchema, { ...ok, password: "Password123" })).toEqual([
      "That password is on the list of common passwords attackers try first. Choose another one.",
    ]);
  });

  it("gives only the spec's message for an empty or missing password or e-mail", () => {
    for (const input of [
      { ...ok, password: "" },
      { username: ok.username, email: ok.email },
      { ...ok, email: "" },
      { ...ok, email: "  " },
    ]) {
      expect(messages(signUpSchema, input)).toEqual([CREDENTIALS_REQUIRED]);
    }
  });

  it("requires a username", () => {
    expect(messages(signUpSchema, { email: ok.email, password: ok.password })).toEqual([
      "Choose a username.",
    ]);
    expect(messages(signUpSchema, { ...ok, username: "" })).toEqual(["Choose a username."]);
    expect(messages(signUpSchema, { ...ok, username: "   " })).toEqual(["Choose a username."]);
  });

  it("checks the username's length and characters", () => {
    expect(messages(usernameSchema, "ab")).toEqual(["Usernames have at least 3 characters."]);
    expect(messages(usernameSchema, "a".repeat(25))).toEqual([
      "Usernames have at most 24 characters.",
    ]);
    expect(messages(usernameSchema, "bad name")).toEqual([
      "Use letters, digits, dots, dashes and underscores only.",
    ]);
    expect(usernameSchema.parse("  a.b-c_9  ")).toBe("a.b-c_9");
    expect(usernameSchema.parse("a".repeat(24))).toBe("a".repeat(24));
  });
});

describe("leagueNameSchema", () => {
  it("trims the name", () => {
    expect(leagueNameSchema.parse("  Friday Shredders  ")).toBe("Friday Shredders");
  });

  it("refuses an empty or blank name", () => {
    for (const name of ["", "   ", "\t\n"]) {
      expect(messages(leagueNameSchema, name)).toEqual(["Give your league a name."]);
    }
    expect(messages(leagueNameSchema, undefined)).toEqual(["Give your league a name."]);
  });

  it("accepts 60 characters and refuses 61 (after trimming)", () => {
    expect(leagueNameSchema.parse(`  ${"x".repeat(60)}  `)).toBe("x".repeat(60));
    expect(messages(leagueNameSchema, "x".repeat(61))).toEqual([
      "League names have at most 60 characters.",
    ]);
  });
});

describe("inviteEmailSchema", () => {
  it("trims and lower-cases the guest's e-mail", () => {
    expect(inviteEmailSchema.parse("  Guest@Example.ORG ")).toBe("guest@example.org");
  });

  it("refuses an empty or blank e-mail with one message", () => {
    for (const v of ["", "   ", undefined]) {
      expect(messages(inviteEmailSchema, v)).toEqual(["Enter your guest's e-mail address."]);
    }
  });

  it("refuses a malformed e-mail", () => {
    expect(messages(inviteEmailSchema, "not-an-email")).toEqual(["Enter a valid e-mail address."]);
  });
});

describe("teamSelectionSchema", () => {
  it("coerces ids sent as strings", () => {
    expect(teamSelectionSchema.parse(["1", 2, "30"])).toEqual([1, 2, 30]);
  });

  it("refuses non-positive, fractional or non-numeric ids and over-long lists", () => {
    for (const v of [[0], [-1], [1.5], ["abc"]]) {
      expect(teamSelectionSchema.safeParse(v).success).toBe(false);
    }
    expect(teamSelectionSchema.safeParse(Array.from({ length: 33 }, (_, i) => i + 1)).success).toBe(
      false,
    );
  });
});

describe("firstIssue", () => {
  it("returns the first message", () => {
    const r = leagueNameSchema.safeParse("");
    expect(!r.success && firstIssue(r.error)).toBe("Give your league a name.");
  });
});
