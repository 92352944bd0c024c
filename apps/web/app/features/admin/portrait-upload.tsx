/**
 * The racer portrait upload on the dashboard: one or several PNG, JPEG or WebP files named by
 * the racer's Picture value or `First-Last.jpg`. With JavaScript it posts in the background and
 * lists per file what happened; without, the same form posts to /admin/portraits, which shows
 * the same list. Files are checked by their content on the server, whatever their names say.
 */
import { useFetcher } from "@remix-run/react";
import { type FormEvent, useId, useState } from "react";
import type { PortraitUploadResult } from "./portrait-upload.server";

export const PORTRAIT_UPLOAD_ACTION = "/admin/portraits";
/** The body limit of a dashboard upload (apps/web/server/body-limit.js), files together. */
const TOTAL_MAX_BYTES = 5 * 1024 * 1024;

function ResultList({ result }: { result: PortraitUploadResult }) {
  const results = result.results ?? [];
  if (results.length === 0) return null;
  const stored = results.filter((r) => r.status === "stored").length;
  return (
    <>
      <p>
        {stored} of {results.length} {results.length === 1 ? "file" : "files"} stored,{" "}
        {results.length - stored} skipped.
      </p>
      <ul className="admin-skipped" aria-label="Uploaded files">
        {results.map((r, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a file may appear twice in one upload
          <li key={`${r.file}-${i}`}>
            <strong>{r.file}</strong>:{" "}
            {r.status === "stored"
              ? `stored for ${[...new Set(r.racers.map((x) => x.name))].join(", ")} (${r.racers.length} ${r.racers.length === 1 ? "entry" : "entries"}, by ${r.matchedBy === "picture" ? "Picture value" : "name"}) as ${r.pictures.join(", ")}`
              : `skipped: ${r.reason}`}
          </li>
        ))}
      </ul>
    </>
  );
}

export function PortraitUpload({ serverResult }: { serverResult?: PortraitUploadResult | null }) {
  const fetcher = useFetcher<PortraitUploadResult>();
  const inputId = useId();
  const hintId = useId();
  const [clientError, setClientError] = useState<string | null>(null);
  const busy = fetcher.state !== "idle";
  const result = clientError ? null : (fetcher.data ?? serverResult ?? null);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const input = event.currentTarget.elements.namedItem("portraits") as HTMLInputElement | null;
    const files = [...(input?.files ?? [])];
    // The server would refuse these with a bare 413: say why here instead.
    if (files.length === 0) {
      event.preventDefault();
      setClientError("Choose one or more image files first.");
      return;
    }
    const total = files.reduce((sum, f) => sum + f.size, 0);
    if (total > TOTAL_MAX_BYTES) {
      event.preventDefault();
      setClientError(
        `These files weigh ${(total / (1024 * 1024)).toFixed(1)} MB together; upload at most 5 MB at a time (or use game-admin racers portraits for a whole folder).`,
      );
      return;
    }
    setClientError(null);
  }

  const error = clientError ?? (result && !result.ok ? result.error : null);
  return (
    <section className="panel admin-upload" aria-labelledby={`${inputId}-title`}>
      <h2 id={`${inputId}-title`}>Upload portraits</h2>
      <fetcher.Form
        method="post"
        action={PORTRAIT_UPLOAD_ACTION}
        encType="multipart/form-data"
        onSubmit={onSubmit}
      >
        <div className="field">
          <label htmlFor={inputId}>Portrait files</label>
          <input
            id={inputId}
            name="portraits"
            type="file"
            multiple
            accept="image/png,image/jpeg,image/webp"
            aria-describedby={hintId}
            aria-invalid={error ? true : undefined}
            onChange={() => setClientError(null)}
          />
          <p id={hintId} className="field-hint">
            PNG, JPEG or WebP, named by the racer's Picture value (as in the racer table) or
            First-Last.jpg (Loic-Bruni.jpg; accents and case do not matter). Each image is cropped
            to a square and resized; it shows for the racer in every event. Up to 5 MB at a time;
            for a whole folder use <code>game-admin racers portraits &lt;folder&gt;</code>.
          </p>
        </div>
        <p>
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? "Uploading..." : "Upload portraits"}
          </button>
        </p>
      </fetcher.Form>
      <div aria-live="polite">
        {error ? (
          <div role="alert" className="form-error">
            <p>
              <strong>{error}</strong>
            </p>
            {result ? <ResultList result={result} /> : null}
          </div>
        ) : result?.ok ? (
          <div
            role="status"
            className={
              result.results.some((r) => r.status === "stored")
                ? "admin-result admin-result--ok"
                : "form-error"
            }
          >
            <ResultList result={result} />
          </div>
        ) : null}
      </div>
    </section>
  );
}
