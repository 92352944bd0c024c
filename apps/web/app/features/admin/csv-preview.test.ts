import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { CSV_MAX_ROWS } from "@game/core";
import { RacerImportError, readRacerCsv } from "@game/db";
import { describe, expect, it } from "vitest";
import { fileTooBig, previewCsvBytes } from "./csv-preview";

const HEADER = "Category,First Name,Last Name,Picture,Origin,Game ID,Rank2024,TotalPoint2024,Price";
const CORPUS = fileURLToPath(
  new URL("../../../../../packages/core/src/fixtures/racer-csv/", import.meta.url),
);
const bytes = (text: string) => new TextEncoder().encode(text);

describe("the dashboard's CSV preview", () => {
  it("counts rows read and skipped with the server's rules and line numbers", () => {
    const text = `\uFEFF${HEADER}\r\n\r\nPro Men,Loic,Bruni,,FRA,5,1,1,1,,\r\nPro Men,,Hart,,,5,1,1,1\r\nKids,A,B\r\n`;
    const p = previewCsvBytes(bytes(text));
    expect(p).toMatchObject({
      ok: true,
      file: {
        read: 3,
        encoding: "UTF-8 with BOM",
        skipped: [
          { line: 4, reason: "missing First Name" },
          { line: 5, reason: 'unknown category "Kids"' },
        ],
      },
    });
    if (p.ok) expect(p.file.rows.map((r) => [r.line, r.lastName])).toEqual([[3, "Bruni"]]);
  });

  it("reads every file of the corpus exactly as the server does, refusals included", () => {
    for (const name of readdirSync(CORPUS)) {
      const file = new Uint8Array(readFileSync(CORPUS + name));
      const p = previewCsvBytes(file);
      let server: ReturnType<typeof readRacerCsv> | string;
      try {
        server = readRacerCsv(file);
      } catch (error) {
        expect(error, name).toBeInstanceOf(RacerImportError);
        server = (error as Error).message;
      }
      if (typeof server === "string") expect(p, name).toEqual({ ok: false, error: server });
      else {
        expect(p.ok, name).toBe(true);
        if (p.ok) {
          expect(p.file, name).toEqual(server);
          // What is sent (the decoded text) reads the same on the server.
          expect(readRacerCsv(p.text).rows, name).toEqual(server.rows);
        }
      }
    }
  });

  it("refuses empty, binary and over-long files in words", () => {
    expect(previewCsvBytes(new Uint8Array())).toEqual({ ok: false, error: "The file is empty." });
    expect(previewCsvBytes(new Uint8Array([0, 1, 2, 3, 0, 0, 7]))).toEqual({
      ok: false,
      error: "This is not a text CSV file.",
    });
    const many = [HEADER, ...Array.from({ length: CSV_MAX_ROWS + 1 }, () => "Pro Men,A,B")];
    expect(previewCsvBytes(bytes(many.join("\n")))).toMatchObject({
      ok: false,
      error: /limited to 20,000 rows/,
    });
  });

  it("refuses a file over 5 MB before reading it", () => {
    expect(fileTooBig(5 * 1024 * 1024)).toBeNull();
    expect(fileTooBig(6 * 1024 * 1024)).toBe(
      "The file is 6.0 MB; racer files are limited to 5.0 MB.",
    );
  });
});
