import { CSV_MAX_ROWS, countCsvRows } from "@game/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createJsonCsvRowCounter, readUploadForm, uploadFileName } from "./upload-form.server";

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

describe("readUploadForm with a row limit", () => {
  it("answers too-many-rows at the row past the limit, before the file ends", async () => {
    const boundary = "----gf-rows";
    const encoder = new TextEncoder();
    let given = 0;
    const pieces = [
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="r.csv"\r\n\r\nCategory,First Name,Last Name\n`,
      ...Array.from({ length: 10 }, (_, p) =>
        Array.from({ length: 1000 }, (_, i) => `Pro Men,A,"B ${p * 1000 + i}"\n`).join(""),
      ),
    ];
    // Never ends: only a refusal on the way can answer.
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const piece = pieces[given];
        if (piece === undefined) return new Promise(() => {});
        given += 1;
        controller.enqueue(encoder.encode(piece));
      },
    });
    const request = new Request("http://localhost/admin", {
      method: "POST",
      body,
      headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` },
      duplex: "half",
    } as RequestInit);
    expect(await readUploadForm(request, 5 * 1024 * 1024, { maxRows: 2500 })).toBe("too-many-rows");
    expect(given).toBeLessThan(pieces.length);
  });

  it("reads a file at the limit, and counts only the file's rows", async () => {
    const form = new FormData();
    form.set("eventId", "5");
    form.set("file", new File(["h\n1\n\n2\n\n"], "r.csv"));
    const read = await readUploadForm(post(form), 1024, { maxRows: 2 });
    expect(read).toBeInstanceOf(FormData);
    expect(await readUploadForm(post(form), 1024, { maxRows: 1 })).toBe("too-many-rows");
  });
});

describe("counting the rows of a JSON upload's CSV text as it arrives", () => {
  it("counts what the parser would count in the text field, however the JSON is cut", () => {
    const text = fc
      .array(fc.constantFrom("a", ",", '"', "\n", "\r\n", " ", "é", "\u2028", "\\", "\t", "😀"), {
        maxLength: 80,
      })
      .map((parts) => parts.join(""));
    fc.assert(
      fc.property(
        text,
        fc.string(),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.boolean(),
        (csv, fileName, textFirst, cuts, asciiOnly) => {
          const other = { fileName, bytes: 12, nested: { text: "x\ny\nz" }, list: ["text", 1] };
          const body = textFirst
            ? JSON.stringify({ text: csv, ...other })
            : JSON.stringify({ ...other, text: csv, dryRun: true });
          // Escaped as some clients send it: every non-ASCII character as \uXXXX.
          const json = asciiOnly
            ? body.replace(
                /[\u007f-\uffff]/g,
                (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
              )
            : body;
          const counter = createJsonCsvRowCounter("text");
          const at = [...new Set(cuts.map((c) => c % (json.length + 1)))].sort((a, b) => a - b);
          let from = 0;
          for (const c of [...at, json.length]) {
            counter.push(json.slice(from, c));
            from = c;
          }
          // The count so far: rows ended by a line break (the last row has none yet).
          const whole = createJsonCsvRowCounter("text");
          whole.push(json);
          expect(counter.rows).toBe(whole.rows);
          expect(counter.rows).toBeLessThanOrEqual(countCsvRows(csv));
          expect(countCsvRows(`${csv}\n`)).toBeGreaterThanOrEqual(counter.rows);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("passes CSV_MAX_ROWS at the row past it", () => {
    const counter = createJsonCsvRowCounter("text");
    counter.push('{"fileName":"r.csv","text":"Category,First Name,Last Name\\n');
    for (let i = 0; i < CSV_MAX_ROWS; i++) counter.push("Pro Men,A,B\\n");
    expect(counter.rows).toBe(CSV_MAX_ROWS);
    counter.push('Pro Men,A,\\"B\\"\\n"}');
    expect(counter.rows).toBe(CSV_MAX_ROWS + 1);
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
