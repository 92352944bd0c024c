import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fieldErrors } from "./field-errors";

const schema = z
  .object({
    name: z.string().min(1, "Name it.").max(3, "Too long."),
    email: z.email("Not an e-mail."),
  })
  .refine((v) => v.name !== "x", "Not x.");

describe("fieldErrors", () => {
  it("keeps the first message per field", () => {
    const r = schema.safeParse({ name: "", email: "no" });
    expect(r.success).toBe(false);
    expect(fieldErrors(r.error!)).toEqual({ name: "Name it.", email: "Not an e-mail." });
  });

  it("puts issues without a field, and the form-wide messages asked for, under form", () => {
    const root = schema.safeParse({ name: "x", email: "a@b.example" });
    expect(fieldErrors(root.error!)).toEqual({ form: "Not x." });
    const both = schema.safeParse({ name: "", email: "no" });
    expect(fieldErrors(both.error!, { formMessages: ["Not an e-mail."] })).toEqual({
      name: "Name it.",
      form: "Not an e-mail.",
    });
  });
});
