/**
 * The CSV racer-upload tool (spec: Admin Dashboard). With JavaScript the file is parsed in the
 * browser with papaparse, previewed (up to 5 racers, rows read and skipped with why), and the rows
 * are posted as JSON; the spec's three alerts are shown with `window.alert` and repeated on the
 * page. Without JavaScript the same form posts the file itself and the page shows the result.
 */
import { formatPrice, RACER_CSV_COLUMNS, UPLOAD_PREVIEW_ROWS } from "@game/core";
import { useRevalidator } from "@remix-run/react";
import Papa from "papaparse";
import { type FormEvent, useId, useState } from "react";
import { useHydrated } from "../team/use-hydrated";
import { AdminTable, num } from "./admin-table";
import { type CsvPreview, type CsvRecord, fileTooBig, previewCsv } from "./csv-preview";
import type { UploadResult } from "./racer-upload.server";
import { NO_DATA, UPLOAD_FAILURE, UPLOAD_SUCCESS } from "./upload-messages";

/** Where the enhanced form posts its JSON (a resource route answering JSON). */
export const UPLOAD_API = "/admin/racers";
/** Where the plain form posts the file (the dashboard's own action). */
export const UPLOAD_FORM_ACTION = "/admin?index";

type Message = { kind: "success" | "error"; text: string; result?: UploadResult };

const SKIPPED_SHOWN = 20;

function SkippedList({ skipped }: { skipped: { line: number; reason: string }[] }) {
  if (skipped.length === 0) return null;
  return (
    <ul className="admin-skipped">
      {skipped.slice(0, SKIPPED_SHOWN).map((s) => (
        <li key={s.line}>
          Line {s.line}: {s.reason}
        </li>
      ))}
      {skipped.length > SKIPPED_SHOWN ? <li>and {skipped.length - SKIPPED_SHOWN} more</li> : null}
    </ul>
  );
}

function ResultText({ result }: { result: UploadResult }) {
  const s = result.summary;
  if (!s) return null;
  return (
    <>
      <p>
        {s.rows} rows read: {s.created} created, {s.updated} updated, {s.unchanged} unchanged,{" "}
        {s.skipped.length} skipped.
      </p>
      <SkippedList skipped={s.skipped} />
    </>
  );
}

export function RacerUpload({ serverResult }: { serverResult?: UploadResult | null }) {
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const inputId = useId();
  const hintId = useId();
  const [fileInfo, setFileInfo] = useState<{ name: string; bytes: number } | null>(null);
  const [preview, setPreview] = useState<CsvPreview | null>(null);
  const [reading, setReading] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [message, setMessage] = useState<Message | null>(() =>
    serverResult
      ? serverResult.ok
        ? { kind: "success", text: UPLOAD_SUCCESS, result: serverResult }
        : { kind: "error", text: serverResult.error, result: serverResult }
      : null,
  );

  const loaded = preview?.ok ? preview.read : 0;
  // Without JavaScript nothing is "loaded" in the page: the plain form must stay usable.
  const disabled = hydrated && (uploading || reading || loaded === 0);

  async function onFile(file: File | undefined) {
    setMessage(null);
    setPreview(null);
    setFileInfo(file ? { name: file.name, bytes: file.size } : null);
    if (!file) return;
    const tooBig = fileTooBig(file.size);
    if (tooBig) {
      setPreview({ ok: false, error: tooBig });
      return;
    }
    setReading(true);
    try {
      const text = await file.text();
      const parsed = Papa.parse<CsvRecord>(text, { header: true, skipEmptyLines: false });
      setPreview(previewCsv(parsed, text));
    } catch (error) {
      console.error("Could not read the CSV file:", error);
      setPreview({ ok: false, error: "The file could not be read as text." });
    } finally {
      setReading(false);
    }
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (uploading) return;
    if (!preview?.ok || preview.rows.length === 0) {
      setMessage({ kind: "error", text: NO_DATA });
      window.alert(NO_DATA);
      return;
    }
    setUploading(true);
    setMessage(null);
    try {
      const response = await fetch(UPLOAD_API, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({
          fileName: fileInfo?.name,
          bytes: fileInfo?.bytes,
          records: preview.records,
        }),
        // A signed-out admin is redirected to log in: that is a failure here, not a page to parse.
        redirect: "manual",
      });
      const result = (await response.json().catch(() => null)) as UploadResult | null;
      if (!response.ok || !result?.ok) {
        const reason = result && !result.ok ? result.error : null;
        setMessage({
          kind: "error",
          text: reason ?? `The server answered ${response.status || "with a redirect"}.`,
          result: result ?? undefined,
        });
        console.error("Racer upload failed:", response.status, result ?? response.statusText);
        window.alert(UPLOAD_FAILURE);
        return;
      }
      setMessage({ kind: "success", text: UPLOAD_SUCCESS, result });
      window.alert(UPLOAD_SUCCESS);
      revalidator.revalidate();
    } catch (error) {
      setMessage({ kind: "error", text: "The upload did not reach the server." });
      console.error("Racer upload failed:", error);
      window.alert(UPLOAD_FAILURE);
    } finally {
      setUploading(false);
    }
  }

  return (
    <section className="panel admin-upload" aria-labelledby={`${inputId}-title`}>
      <h2 id={`${inputId}-title`}>Upload racers</h2>
      <form
        method="post"
        action={UPLOAD_FORM_ACTION}
        encType="multipart/form-data"
        onSubmit={hydrated ? onSubmit : undefined}
        className="admin-upload-form"
      >
        <div className="field">
          <label htmlFor={inputId}>CSV file</label>
          <input
            id={inputId}
            name="file"
            type="file"
            accept=".csv,text/csv"
            aria-describedby={hintId}
            onChange={(e) => void onFile(e.currentTarget.files?.[0])}
          />
          <p id={hintId} className="field-hint">
            Columns: {RACER_CSV_COLUMNS.join(", ")} (Picture may be left out; an ID column updates
            racers by id). Up to 5 MB and 20,000 rows. Uploading the same file again updates the
            racers instead of adding them twice.
          </p>
        </div>

        <div aria-live="polite" className="admin-upload-preview">
          {reading ? <p>Reading the file…</p> : null}
          {preview && !preview.ok ? <p className="form-error">{preview.error}</p> : null}
          {preview?.ok ? <PreviewTable preview={preview} /> : null}
        </div>

        <p>
          <button
            type="submit"
            className="button button--primary"
            disabled={disabled}
            aria-describedby={hydrated && loaded === 0 ? hintId : undefined}
          >
            {uploading ? "Uploading..." : "Upload Racers"}
          </button>
        </p>
      </form>

      {message ? (
        <div
          role="alert"
          className={message.kind === "success" ? "admin-result admin-result--ok" : "form-error"}
        >
          <p>
            <strong>{message.text}</strong>
            {message.kind === "error" && message.text !== NO_DATA ? " Nothing was saved." : null}
          </p>
          {message.result ? <ResultText result={message.result} /> : null}
        </div>
      ) : null}
    </section>
  );
}

function PreviewTable({ preview }: { preview: Extract<CsvPreview, { ok: true }> }) {
  const shown = preview.rows.slice(0, UPLOAD_PREVIEW_ROWS);
  return (
    <div className="admin-preview">
      <p>
        <strong>{preview.read}</strong> {preview.read === 1 ? "row" : "rows"} read,{" "}
        <strong>{preview.skipped.length}</strong> skipped.
      </p>
      <SkippedList skipped={preview.skipped} />
      {shown.length > 0 ? (
        <AdminTable
          label="Preview table"
          caption={
            <>
              Preview: {shown.length === preview.rows.length ? "all" : `first ${shown.length} of`}{" "}
              {preview.rows.length} {preview.rows.length === 1 ? "racer" : "racers"}
            </>
          }
          columns={[
            "Line",
            "Category",
            "First Name",
            "Last Name",
            "Picture",
            "Origin",
            "Game ID",
            num("Rank2024"),
            num("TotalPoint2024"),
            num("Price"),
          ]}
          rows={shown}
        >
          {(r) => (
            <tr key={r.line}>
              <td>{r.line}</td>
              <td>{r.category}</td>
              <td>{r.firstName}</td>
              <td>{r.lastName}</td>
              <td>{r.picture ?? ""}</td>
              <td>{r.origin}</td>
              <td>{r.gameId}</td>
              <td className="num">{r.rank2024}</td>
              <td className="num">{r.totalPoint2024}</td>
              <td className="num">{formatPrice(r.price)}</td>
            </tr>
          )}
        </AdminTable>
      ) : null}
    </div>
  );
}
