import { describe, expect, it } from "vitest";
import { checkUrl } from "./url-guard.js";

describe("checkUrl", () => {
  it("refuses a NUL or a broken escape in the path as not found", () => {
    expect(checkUrl("/players/%00")).toEqual({ status: 404 });
    expect(checkUrl("/api/v1/teams/%00")).toEqual({ status: 404 });
    expect(checkUrl("/racers/1%00")).toEqual({ status: 404 });
    expect(checkUrl("/players/%E0%A4%A")).toEqual({ status: 404 });
  });

  it("refuses a NUL in the query as a bad request", () => {
    expect(checkUrl("/admin/users?q=a%00b")).toEqual({ status: 400 });
  });

  it("lets ordinary addresses through, escapes and all", () => {
    for (const url of [
      "/",
      "/players/Zo%C3%A9",
      "/view-racers?game=2&sort=name",
      "/a?q=%25",
      "/x?q=100%",
    ]) {
      expect(checkUrl(url), url).toBeNull();
    }
  });
});
