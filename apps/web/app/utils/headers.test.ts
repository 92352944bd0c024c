import { describe, expect, it } from "vitest";
import { keepRetryAfter } from "./headers";

describe("keepRetryAfter", () => {
  it("passes an action's or loader's Retry-After on, beside the parent's headers", () => {
    const parentHeaders = new Headers({ "X-Parent": "1" });
    const none = new Headers();
    const fromAction = keepRetryAfter({
      parentHeaders,
      loaderHeaders: none,
      actionHeaders: new Headers({ "Retry-After": "873", "X-Other": "dropped" }),
      errorHeaders: undefined,
    }) as Headers;
    expect(fromAction.get("Retry-After")).toBe("873");
    expect(fromAction.get("X-Parent")).toBe("1");
    expect(fromAction.get("X-Other")).toBeNull();
    const fromError = keepRetryAfter({
      parentHeaders,
      loaderHeaders: none,
      actionHeaders: none,
      errorHeaders: new Headers({ "Retry-After": "30" }),
    }) as Headers;
    expect(fromError.get("Retry-After")).toBe("30");
    const quiet = keepRetryAfter({
      parentHeaders,
      loaderHeaders: none,
      actionHeaders: none,
      errorHeaders: undefined,
    }) as Headers;
    expect(quiet.has("Retry-After")).toBe(false);
  });
});
