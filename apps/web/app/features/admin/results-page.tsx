/**
 * The results page of the dashboard (/admin/results): import an event's official results
 * (checked first), final or provisional while the race runs, settle, make provisional results
 * final, see what is stored.
 */
import { CATEGORIES } from "@game/core/categories";
import { CSV_MAX_BYTES } from "@game/core/constants";
import { resultsUploadSchema } from "@game/core/results";
import { Form, Link, useNavigation } from "@remix-run/react";
import { type ChangeEvent, useEffect, useRef, useState } from "react";
import { count, ordinal } from "~/components/charts/labels";
import { AdminTable, num } from "./admin-table";
import type { ResultsActionData, ResultsPageData } from "./results-upload.server";
import { PROVISIONAL_HINT, settlementText } from "./upload-messages";

function placeText(r: { status: string; position: number | null }): string {
  return r.status === "finished" && r.position ? ordinal(r.position) : r.status;
}

/** Both panels: the upload form with its answer, and the stored results of one event. */
export function ResultsPage({
  page,
  answer,
}: {
  page: ResultsPageData;
  /** What the last form posted here answered. */
  answer?: ResultsActionData;
}) {
  const navigation = useNavigation();
  const busyIntent = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  // "Make final" answers beside its button; every other answer under the upload form.
  const finalized = answer?.intent === "finalize" ? answer : undefined;
  return (
    <>
      <UploadPanel page={page} answer={finalized ? undefined : answer} busyIntent={busyIntent} />
      <StoredPanel page={page} finalized={finalized} busyIntent={busyIntent} />
    </>
  );
}

type BusyIntent = FormDataEntryValue | null | undefined;

/**
 * The upload form (check a file, import and score it) and the answer of every post but "Make
 * final" (a check, an import, "Score again").
 */
function UploadPanel({
  page,
  answer,
  busyIntent,
}: {
  page: ResultsPageData;
  answer: ResultsActionData | undefined;
  busyIntent: BusyIntent;
}) {
  const { events, chosen } = page;
  const [fileError, setFileError] = useState<string | null>(null);
  const resultRef = useRef<HTMLDivElement>(null);
  // After an answer, move focus to it so keyboard and screen-reader users land on the outcome.
  useEffect(() => {
    if (answer) resultRef.current?.focus();
  }, [answer]);

  // The same rule the server applies, checked as soon as a file is chosen.
  async function checkFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.currentTarget.files?.[0];
    if (!file) return setFileError(null);
    if (file.size > CSV_MAX_BYTES) {
      return setFileError(`The file is larger than ${CSV_MAX_BYTES / 1024 / 1024} MB.`);
    }
    const parsed = resultsUploadSchema.shape.csv.safeParse(await file.text());
    setFileError(parsed.success ? null : (parsed.error.issues[0]?.message ?? null));
  }

  const selected = answer?.eventId ?? chosen?.id ?? "";
  return (
    <section className="panel" aria-labelledby="results-title">
      <h2 id="results-title">Results</h2>
      <p className="muted">
        Upload an event's official results as CSV with the columns <code>Position</code> (a place
        per category, or DNF, DNS, DSQ), <code>First Name</code>, <code>Last Name</code> and{" "}
        <code>Category</code>; a <code>Racer ID</code> column may replace the names. Timing exports
        work as they are: <code>Rank</code>, one <code>Name</code> column ("BRUNI Loic"), DNF, DNS
        or DSQ in the time or status column; choose their category below. The whole file is checked
        first: if any line is wrong, nothing is written. Importing replaces the results of the
        categories in the file (the others stay) and scores every frozen team at once; a corrected
        file simply replaces the old one.
      </p>
      <Form method="post" encType="multipart/form-data" className="admin-filters">
        <div className="field">
          <label htmlFor="results-event">Event</label>
          <select id="results-event" name="eventId" defaultValue={selected} required>
            {events.map((e) => (
              <option key={e.id} value={e.id}>
                {e.id}. {e.name}
                {e.provisional
                  ? " (provisional)"
                  : e.settledAt
                    ? " (scored)"
                    : e.frozenAt
                      ? " (teams frozen)"
                      : ""}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="results-category">Category of the file</label>
          <select
            id="results-category"
            name="category"
            defaultValue={answer?.ok && answer.intent === "preview" ? (answer.category ?? "") : ""}
          >
            <option value="">From the file's Category column</option>
            {CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="results-file">Results file (CSV)</label>
          <input
            id="results-file"
            name="file"
            type="file"
            accept=".csv,text/csv"
            required
            onChange={checkFile}
            aria-invalid={fileError ? true : undefined}
            aria-describedby={fileError ? "results-file-error" : undefined}
          />
          {fileError ? (
            <p id="results-file-error" className="field-error">
              {fileError}
            </p>
          ) : null}
        </div>
        <div className="field">
          <p className="checkbox">
            <input
              type="checkbox"
              id="results-provisional"
              name="provisional"
              value="yes"
              // Kept ticked after a provisional check or import: the next file of the race.
              defaultChecked={answer?.ok && "provisional" in answer ? answer.provisional : false}
              aria-describedby="results-provisional-hint"
            />{" "}
            <label htmlFor="results-provisional">Provisional results</label>
          </p>
          <p id="results-provisional-hint" className="field-hint">
            {PROVISIONAL_HINT}
          </p>
        </div>
        <div className="admin-row-actions">
          <button
            type="submit"
            name="intent"
            value="preview"
            className="button button--ghost"
            disabled={busyIntent != null || fileError !== null}
          >
            {busyIntent === "preview" ? "Checking..." : "Check file"}
          </button>
          <button
            type="submit"
            name="intent"
            value="import"
            className="button button--primary"
            disabled={busyIntent != null || fileError !== null}
          >
            {busyIntent === "import" ? "Importing..." : "Import and score"}
          </button>
        </div>
      </Form>
      <div ref={resultRef} tabIndex={-1} aria-live="polite">
        {answer ? <Answer answer={answer} busy={busyIntent != null} /> : null}
      </div>
    </section>
  );
}

/** The stored results of the chosen event, with "Score again" and "Make final". */
function StoredPanel({
  page,
  finalized,
  busyIntent,
}: {
  page: ResultsPageData;
  /** The answer of "Make final", shown beside it. */
  finalized: ResultsActionData | undefined;
  busyIntent: BusyIntent;
}) {
  const { events, chosen } = page;
  const finalizeRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (finalized) finalizeRef.current?.focus();
  }, [finalized]);
  return (
    <section className="panel" aria-labelledby="stored-title">
      <h2 id="stored-title">Stored results</h2>
      <Form method="get" className="admin-filters" aria-label="Choose the event">
        <div className="field">
          <label htmlFor="stored-event">Event</label>
          <select id="stored-event" name="event" defaultValue={chosen?.id ?? ""}>
            {events.map((e) => (
              <option key={e.id} value={e.id}>
                {e.id}. {e.name}
                {e.provisional ? " (provisional)" : ""}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button button--ghost">
          Show
        </button>
      </Form>
      {chosen === null ? (
        <p>No events yet.</p>
      ) : chosen.results.length === 0 ? (
        <p>
          No results for {chosen.name} yet.
          {chosen.lockWarning ? ` ${chosen.lockWarning}` : ""}
        </p>
      ) : (
        <>
          <p className="muted">
            {count(chosen.results.length)} results for {chosen.name}.{" "}
            <Link to={`/players-ranking?event=${chosen.id}`}>Event ranking</Link>
          </p>
          {chosen.provisional ? (
            <p id="stored-provisional">
              <span className="admin-status" data-status="provisional">
                Provisional
              </span>{" "}
              Points and ranks say provisional until the final results: import the final file, or
              make these results final as they stand.
            </p>
          ) : null}
          <div className="admin-row-actions">
            <EventIntent
              eventId={chosen.id}
              intent="settle"
              busyIntent={busyIntent}
              label="Score again"
              busyLabel="Scoring..."
            />
            {chosen.provisional ? (
              <EventIntent
                eventId={chosen.id}
                intent="finalize"
                busyIntent={busyIntent}
                label="Make final"
                busyLabel="Making final..."
                primary
                describedBy="stored-provisional"
              />
            ) : null}
          </div>
          <AdminTable
            label={`Results of ${chosen.name}`}
            columns={["Category", "Place", "Racer", num("Points"), num("Picked by")]}
            rows={chosen.results}
          >
            {(r) => (
              <tr key={r.racerId}>
                <td>{r.category}</td>
                <td>{placeText(r)}</td>
                <th scope="row">
                  <Link to={`/racers/${r.racerId}`}>
                    {r.firstName} {r.lastName}
                  </Link>
                </th>
                <td className="num">{r.points}</td>
                <td className="num">{count(r.pickedBy)}</td>
              </tr>
            )}
          </AdminTable>
        </>
      )}
      <div ref={finalizeRef} tabIndex={-1} aria-live="polite">
        {finalized ? <Answer answer={finalized} busy={busyIntent != null} /> : null}
      </div>
    </section>
  );
}

/** A stored round's action (score again, make final): one button posting its intent. */
function EventIntent(props: {
  eventId: number;
  intent: "settle" | "finalize";
  busyIntent: BusyIntent;
  label: string;
  busyLabel: string;
  primary?: boolean;
  describedBy?: string;
}) {
  return (
    <Form method="post" className="admin-row-actions">
      <input type="hidden" name="eventId" value={props.eventId} />
      <button
        type="submit"
        name="intent"
        value={props.intent}
        className={props.primary ? "button button--primary" : "button button--ghost"}
        aria-describedby={props.describedBy}
        disabled={props.busyIntent != null}
      >
        {props.busyIntent === props.intent ? props.busyLabel : props.label}
      </button>
    </Form>
  );
}

function Answer({ answer, busy }: { answer: ResultsActionData; busy: boolean }) {
  if (!answer.ok) {
    return (
      <div role="alert" className="form-error">
        <p>{answer.error}</p>
        {answer.issues.length > 0 ? (
          <ul className="admin-skipped">
            {answer.issues.map((issue) => (
              <li key={issue}>{issue}</li>
            ))}
            {answer.moreIssues > 0 ? <li>and {answer.moreIssues} more.</li> : null}
          </ul>
        ) : null}
      </div>
    );
  }
  if (answer.intent === "preview") {
    const c = answer.counts;
    return (
      <div className="callout">
        <p>
          <strong>
            {answer.fileName} is ready: {count(c.rows)} results for {answer.eventName}
          </strong>{" "}
          ({count(c.finished)} finished, {c.DNF} DNF, {c.DNS} DNS, {c.DSQ} DSQ). Importing replaces
          the results of {answer.categories.join(", ")}; other categories stay as they are.
        </p>
        {answer.stateNote ? <p>{answer.stateNote}</p> : null}
        {answer.lockWarning ? <p>{answer.lockWarning}</p> : null}
        <AdminTable
          label="Racers matched in the file"
          caption="Racers matched in the file"
          hideCaption
          columns={["Line", "Place", "In the file", "Racer", "Category", num("Points")]}
          rows={answer.preview}
        >
          {(r) => (
            <tr key={r.line}>
              <td>{r.line}</td>
              <td>{placeText(r)}</td>
              <td>{r.asWritten}</td>
              <th scope="row">{r.name}</th>
              <td>{r.category}</td>
              <td className="num">{r.points}</td>
            </tr>
          )}
        </AdminTable>
        <Form method="post" className="admin-row-actions">
          <input type="hidden" name="eventId" value={answer.eventId} />
          <input type="hidden" name="csv" value={answer.csv} />
          {answer.category ? <input type="hidden" name="category" value={answer.category} /> : null}
          {answer.provisional ? <input type="hidden" name="provisional" value="yes" /> : null}
          <button
            type="submit"
            name="intent"
            value="import"
            className="button button--primary"
            disabled={busy}
          >
            {busy
              ? "Importing..."
              : `Import these ${count(c.rows)} ${answer.provisional ? "provisional " : ""}results and score`}
          </button>
        </Form>
      </div>
    );
  }
  const s = answer.settlement;
  return (
    <div className="admin-result admin-result--ok" role="status">
      <p>
        <strong>
          {answer.intent === "settle" ? `${answer.eventName} scored again.` : answer.message}
        </strong>
        {s ? ` ${settlementText(s)}` : ""}
      </p>
      <p>
        <Link to={`/players-ranking?event=${answer.eventId}`}>Event ranking</Link> ·{" "}
        <Link to="/players-ranking">Season ranking</Link> ·{" "}
        <Link to="/leagues-ranking">Leagues ranking</Link>
      </p>
    </div>
  );
}
