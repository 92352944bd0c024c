import { describe, expect, it } from "vitest";
import { readUploadForm, uploadFileName } from "./upload-form.server";

function post(body: BodyInit, type?: string): Request {
  return new Request("http://localhost/admin", {
    method: "POST",
    body,
    headers: type ? { "Content-Type": type } : undefined,
  });
}

describe("readUploadForm", () => {
  it("reads a multipart post with its file", async () => {
    const form = new FormData();
    form.set("eventId", "5");
    form.set("file", new File(["a,b\n1,2\n"], "results.csv", { type: "text/csv" }));
    const read = await readUploadForm(post(form), 1024);
    expect(read).toBeInstanceOf(FormData);
    const file = (read as FormData).get("file");
    expect(file).toBeInstanceOf(Blob);
    expect(await (file as Blob).text()).toBe("a,b\n1,2\n");
    expect((read as FormData).get("eventId")).toBe("5");
  });

  it("refuses a part past the cap, and a body that is not multipart", async () => {
    const form = new FormData();
    form.set("file", new File(["x".repeat(2048)], "big.csv"));
    expect(await readUploadForm(post(form), 1024)).toBe("too-big");
    expect(await readUploadForm(post("eventId=5", "application/x-www-form-urlencoded"), 1024)).toBe(
      "unreadable",
    );
  });
});

describe("uploadFileName", () => {
  it("keeps a safe name, or the fallback", () => {
    expect(uploadFileName(new File([""], "../../etc/passwd"), "upload.csv")).toBe(
      ".._.._etc_passwd",
    );
    expect(uploadFileName(new File([""], ` ${"a".repeat(200)}.csv`), "upload.csv")).toHaveLength(
      120,
    );
    expect(uploadFileName(new File([""], ""), "results.csv")).toBe("results.csv");
    expect(uploadFileName("sent/by script.csv", "upload.csv")).toBe("sent_by script.csv");
    expect(uploadFileName(42, "upload.csv")).toBe("upload.csv");
  });
});
