/**
 * The CSV racer-upload tool (spec: Admin Dashboard). With JavaScript the file is read in the
 * browser with the same @game/core functions the server uses (encoding, blank lines, extra cells,
 * line numbers), previewed (up to 5 racers, rows read and skipped with why, defaults used), then
 * checked by the server as a dry run, which lists every field that would change, old -> new. The
 * decoded text is posted as JSON; the spec's alerts are shown with `window.alert` and repeated on
 * the page. Without JavaScript the same form posts the file itself and the page shows the result.
 */
import { UPLOAD_PREVIEW_ROWS } from "@game/core/constants";
import { RACER_CSV_COLUMNS, type SkippedRow } from "@game/core/csv";
import { formatPrice } from "@game/core/format";
import { defaultUsedText } from "@game/core/racer-csv";
import type { RacerImportSummary } from "@game/db";
import { useRevalidator } from "@remix-run/react";
import { type FormEvent, useId, useState } from "react";
import { useHydrated } from "~/features/team/use-hydrated";
import { AdminTable, num } from "./admin-table";
import { type CsvPreview, fileTooBig, previewCsvBytes } from "./csv-preview";
import type { UploadResult } from "./racer-upload.server";
import { NO_DATA, UPLOAD_FAILURE, uploadDone } from "./upload-messages";

/** Where the enhanced form posts its JSON (a resource route answering JSON). */
export const UPLOAD_API = "/admin/racers";
/** Where the plain form posts the file (the dashboard's own action). */
export const UPLOAD_FORM_ACTION = "/admin?index";

type Message = { kind: "success" | "error"; text: string; result?: UploadResult };
type Check = { state: "checking" } | { state: "done"; result: UploadResult };

const SKIPPED_SHOWN = 20;

function SkippedList({ skipped }: { skipped: readonly SkippedRow[] }) {
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

function DefaultsList({ defaults }: { defaults: RacerImportSummary["defaults"] }) {
  if (defaults.length === 0) return null;
  return (
    <>
      <p>Defaults used for cells that are not numbers:</p>
      <ul className="admin-skipped">
        {defaults.map((d) => (
          <li key={`${d.line}-${d.column}`}>
            Line {d.line}: {defaultUsedText(d)}
          </li>
        ))}
      </ul>
    </>
  );
}

const shown = (v: string | number | null) =>
  v === null ? "(none)" : typeof v === "number" ? String(v) : JSON.stringify(v);

/** Every racer created or changed, field by field. */
function ChangeList({ summary }: { summary: RacerImportSummary }) {
  const { changes, kept } = summary;
  return (
    <>
      {kept.length > 0 ? <p>Not in the file, so kept as they are: {kept.join(", ")}.</p> : null}
      {changes.length === 0 ? (
        <p>No racer changes.</p>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll by keyboard
        <ul className="admin-changes" tabIndex={0} aria-label="Changes, line by line">
          {changes.map((c) => (
            <li key={c.line}>
              Line {c.line}: {c.action === "create" ? "new racer" : "update"} {c.name} (event{" "}
              {c.gameId}):{" "}
              {c.changes.map((f) => `${f.field} ${shown(f.from)} → ${shown(f.to)}`).join(", ")}
            </li>
          ))}
        </ul>
      )}
    </>
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
      {s.teamsTouched > 0 ? (
        <p>
          {s.teamsTouched} saved {s.teamsTouched === 1 ? "team holds" : "teams hold"} a racer whose
          price changes; {s.teamsTouched === 1 ? "it keeps" : "they keep"} the prices paid, so none
          becomes invalid.
        </p>
      ) : null}
      <SkippedList skipped={s.skipped} />
      <DefaultsList defaults={s.defaults ?? []} />
    </>
  );
}

function messageOf(result: UploadResult): Message {
  return result.ok
    ? { kind: "success", text: uploadDone(result.summary), result }
    : { kind: "error", text: result.error, result };
}

async function postJson(
  body: object,
): Promise<{ response: Response; result: UploadResult | null }> {
  const response = await fetch(UPLOAD_API, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
    // A signed-out admin is redirected to log in: that is a failure here, not a page to parse.
    redirect: "manual",
  });
  const result = (await response.json().catch(() => null)) as UploadResult | null;
  return { response, result };
}

export function RacerUpload({ serverResult }: { serverResult?: UploadResult | null }) {
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const inputId = useId();
  const hintId = useId();
  const [fileInfo, setFileInfo] = useState<{ name: string; bytes: number } | null>(null);
  const [preview, setPreview] = useState<CsvPreview | null>(null);
  const [check, setCheck] = useState<Check | null>(null);
  const [reading, setReading] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [message, setMessage] = useState<Message | null>(() =>
    serverResult ? messageOf(serverResult) : null,
  );

  // Enabled once a file is chosen, even one without data: clicking then shows the spec's
  // 'No data to upload' alert with the reason on the page (docs/decisions/0081).
  const disabled = hydrated && (uploading || reading || fileInfo === null);

  async function onFile(file: File | undefined) {
    setMessage(null);
    setPreview(null);
    setCheck(null);
    setFileInfo(file ? { name: file.name, bytes: file.size } : null);
    if (!file) return;
    const tooBig = fileTooBig(file.size);
    if (tooBig) {
      setPreview({ ok: false, error: tooBig });
      return;
    }
    setReading(true);
    let read: CsvPreview;
    try {
      read = previewCsvBytes(await file.arrayBuffer());
      setPreview(read);
    } catch (error) {
      console.error("Could not read the CSV file:", error);
      setPreview({ ok: false, error: "The file could not be read." });
      return;
    } finally {
      setReading(false);
    }
    if (!read.ok || read.file.rows.length === 0) return;
    setCheck({ state: "checking" });
    setCheck(await checkOnServer(file, read.text));
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (uploading) return;
    if (!preview?.ok || preview.file.rows.length === 0) {
      const reason = preview && !preview.ok ? preview.error : null;
      setMessage({ kind: "error", text: reason ? `${NO_DATA} ${reason}` : NO_DATA });
      window.alert(NO_DATA);
      return;
    }
    setUploading(true);
    setMessage(null);
    const sent = await sendRacers(fileInfo, preview.text);
    setUploading(false);
    setMessage(sent);
    window.alert(sent.kind === "success" ? sent.text : UPLOAD_FAILURE);
    if (sent.kind === "success") {
      setCheck(null);
      revalidator.revalidate();
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
            Columns: {RACER_CSV_COLUMNS.join(", ")} (an ID column updates racers by id). Only
            Category, First Name and Last Name are required: a column left out, or an empty cell,
            keeps what a racer already has. Up to 5 MB and 20,000 rows, from Excel, LibreOffice or
            Google Sheets. Uploading the same file again changes nothing.
          </p>
        </div>

        <div aria-live="polite" className="admin-upload-preview">
          {reading ? <p>Reading the file…</p> : null}
          {preview && !preview.ok ? <p className="form-error">{preview.error}</p> : null}
          {preview?.ok ? <PreviewTable preview={preview} /> : null}
          {check?.state === "checking" ? <p>Checking what would change…</p> : null}
          {check?.state === "done" && check.result.summary ? (
            <section aria-label="What the upload would change">
              <h3>What the upload would change</h3>
              <ChangeList summary={check.result.summary} />
            </section>
          ) : null}
          {check?.state === "done" && !check.result.ok && !check.result.summary ? (
            <p className="form-error">{check.result.error}</p>
          ) : null}
        </div>

        <p>
          <button
            type="submit"
            className="button button--primary"
            disabled={disabled}
            aria-describedby={hydrated && fileInfo === null ? hintId : undefined}
          >
            {uploading ? "Uploading..." : "Upload Racers"}
          </button>
        </p>
      </form>

      {message ? <UploadMessage message={message} /> : null}
    </section>
  );
}

/** The server's dry run of a file read in the page: what would change, field by field. */
async function checkOnServer(file: File, text: string): Promise<Check> {
  try {
    const { result } = await postJson({
      fileName: file.name,
      bytes: file.size,
      text,
      dryRun: true,
    });
    return {
      state: "done",
      result: result ?? { ok: false, error: "The server could not check the file." },
    };
  } catch (error) {
    console.error("Racer upload check failed:", error);
    return { state: "done", result: { ok: false, error: "The server could not be reached." } };
  }
}

/** Sends the file for real: the message saying what was saved, or why nothing was. */
async function sendRacers(
  fileInfo: { name: string; bytes: number } | null,
  text: string,
): Promise<Message> {
  try {
    const { response, result } = await postJson({
      fileName: fileInfo?.name,
      bytes: fileInfo?.bytes,
      text,
    });
    if (response.ok && result?.ok) return messageOf(result);
    const reason = result && !result.ok ? result.error : null;
    console.error("Racer upload failed:", response.status, result ?? response.statusText);
    return {
      kind: "error",
      text: reason ?? `The server answered ${response.status || "with a redirect"}.`,
      result: result ?? undefined,
    };
  } catch (error) {
    console.error("Racer upload failed:", error);
    return { kind: "error", text: "The upload did not reach the server." };
  }
}

function UploadMessage({ message }: { message: Message }) {
  return (
    <div
      role="alert"
      className={message.kind === "success" ? "admin-result admin-result--ok" : "form-error"}
    >
      <p>
        <strong>{message.text}</strong>
        {message.kind === "error" && !message.text.startsWith(NO_DATA)
          ? " Nothing was saved."
          : null}
      </p>
      {message.result ? <ResultText result={message.result} /> : null}
    </div>
  );
}

function PreviewTable({ preview }: { preview: Extract<CsvPreview, { ok: true }> }) {
  const { file } = preview;
  const shown = file.rows.slice(0, UPLOAD_PREVIEW_ROWS);
  return (
    <div className="admin-preview">
      <p>
        <strong>{file.read}</strong> {file.read === 1 ? "row" : "rows"} read
        {file.encoding && !file.encoding.startsWith("UTF-8") ? ` (${file.encoding})` : ""},{" "}
        <strong>{file.skipped.length}</strong> skipped.
      </p>
      {file.ignoredColumns.length > 0 ? (
        <p>Columns ignored: {file.ignoredColumns.join(", ")}.</p>
      ) : null}
      <SkippedList skipped={file.skipped} />
      <DefaultsList defaults={file.defaults} />
      {shown.length > 0 ? (
        <AdminTable
          label="Preview table"
          caption={
            <>
              Preview: {shown.length === file.rows.length ? "all" : `first ${shown.length} of`}{" "}
              {file.rows.length} {file.rows.length === 1 ? "racer" : "racers"}
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
