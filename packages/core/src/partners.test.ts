import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  PARTNER_NAME_MAX,
  parseOriginList,
  parsePartnerInput,
  parsePartnerName,
  partnerFormSchema,
} from "./partners.js";

describe("parsePartnerInput", () => {
  it("accepts a name and origins separated by spaces, commas or lines, deduplicated", () => {
    expect(
      parsePartnerInput({
        name: "  MTB News ",
        origins: "https://mtb.example\nhttps://MTB.example/, https://www.mtb.example",
      }),
    ).toEqual({
      ok: true,
      value: { name: "MTB News", origins: ["https://mtb.example", "https://www.mtb.example"] },
    });
    expect(parsePartnerInput({ name: "A", origins: ["https://a.example"] }).ok).toBe(true);
  });

  it("explains what is wrong", () => {
    expect(parsePartnerInput({ name: " ", origins: "" })).toEqual({
      ok: false,
      errors: { name: "Give the partner a name.", origins: "Add at least one origin." },
    });
    const r = parsePartnerInput({ name: "x".repeat(81), origins: "https://ok.example /path" });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.errors.name).toMatch(/at most 80/);
      expect(r.errors.origins).toBe('"/path" is not a web origin (like https://news.example).');
    }
    expect(
      parsePartnerInput({
        name: "A",
        origins: Array.from({ length: 21 }, (_, i) => `https://${i}.example`),
      }),
    ).toEqual({ ok: false, errors: { origins: "At most 20 origins per partner." } });
  });
});

describe("parseOriginList", () => {
  it("reads origins like the add form, and allows an empty list", () => {
    expect(parseOriginList("https://A.example/ https://a.example,http://localhost:3000")).toEqual({
      ok: true,
      value: ["https://a.example", "http://localhost:3000"],
    });
    expect(parseOriginList(["https://x.example", "https://y.example/"])).toEqual({
      ok: true,
      value: ["https://x.example", "https://y.example"],
    });
    expect(parseOriginList("")).toEqual({ ok: true, value: [] });
    expect(parseOriginList("https://x.example/path")).toEqual({
      ok: false,
      error: '"https://x.example/path" is not a web origin (like https://news.example).',
    });
  });

  it("refuses wildcard origins with a clear message", () => {
    for (const text of ["https://*.example.com", "*", "https://news.*.example"]) {
      expect(parseOriginList(text)).toEqual({
        ok: false,
        error: `"${text}": wildcard origins are not supported; list each site's origin (like https://news.example.com).`,
      });
    }
  });
});

describe("the partner name: one rule for the form and the services", () => {
  it("the form's schema and parsePartnerName agree on every name", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: PARTNER_NAME_MAX + 10 }), (name) => {
        const service = parsePartnerName(name);
        const form = partnerFormSchema.shape.name.safeParse(name);
        expect(form.success).toBe(service.ok);
        if (service.ok && form.success) expect(form.data).toBe(service.value);
        if (!service.ok && !form.success) expect(form.error.issues[0]?.message).toBe(service.error);
      }),
    );
    expect(parsePartnerName(undefined)).toEqual({ ok: false, error: "Give the partner a name." });
  });
});
