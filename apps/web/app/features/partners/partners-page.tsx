/**
 * The partners page of the dashboard (/admin/partners): sites allowed to embed the widgets, each
 * with its publishable key. Partners are added here and managed one at a time (`?partner=ID`):
 * rename, edit origins, disable or enable, delete. Changes that stop a partner's pages ask for
 * confirmation first; every form works without JavaScript.
 */
import { Form, Link, useNavigation } from "@remix-run/react";
import { type ReactNode, type RefObject, useEffect, useRef } from "react";
import { AdminTime } from "~/features/admin/admin-time";
import { TableScroll } from "~/features/admin/table-scroll";
import { EmbedSnippet } from "./embed-snippet";
import { PartnerStats } from "./partner-stats";
import type {
  PartnerFormResult,
  PartnerManageResult,
  PartnersActionResult,
  PartnersPageData,
} from "./partners.server";

type Partner = PartnersPageData["partners"][number];

const manageHref = (id: number) => `/admin/partners?partner=${id}`;

/** The whole page: the managed partner's panel, the add form, the table and the embed code. */
export function PartnersPage({
  page,
  posted,
}: {
  page: PartnersPageData;
  /** What the last form posted here answered. */
  posted?: PartnersActionResult;
}) {
  const { partners, manageId, gameUrl, events, stats } = page;
  const added = posted?.intent === "add" ? posted : undefined;
  const managed = posted && posted.intent !== "add" ? posted : undefined;
  const managing = partners.find((p) => p.id === manageId);
  // A result about the partner on show appears in its panel; any other (it was just deleted, or
  // is gone) above the table.
  const inPanel = managing && managed?.partnerId === managing.id ? managed : undefined;
  const elsewhere = managed && !inPanel ? managed : undefined;
  const noticeRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    // The panel the admin was using may be gone (deleted): take focus to the message.
    if (elsewhere) noticeRef.current?.focus();
  }, [elsewhere]);

  return (
    <>
      {managing ? (
        <ManagePartner key={managing.id} partner={managing} posted={inPanel}>
          <PartnerStats name={managing.name} days={stats} />
        </ManagePartner>
      ) : null}
      <AddPartner posted={added} />
      <section className="panel" aria-labelledby="partners-title">
        <h2 id="partners-title">Partners</h2>
        <div role="status" aria-live="polite" tabIndex={-1} ref={noticeRef}>
          {elsewhere ? <Notice result={elsewhere} /> : null}
        </div>
        {partners.length === 0 ? (
          <p>No partners yet.</p>
        ) : (
          <TableScroll label="Partner table">
            <table className="table admin-table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Status</th>
                  <th scope="col">Publishable key</th>
                  <th scope="col">Origins</th>
                  <th scope="col">Added</th>
                  <th scope="col">Widget loads, 7 days</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {partners.map((p) => (
                  <tr key={p.id}>
                    <th scope="row">{p.name}</th>
                    <td>
                      <StatusBadge partner={p} />
                    </td>
                    <td className="admin-key">{p.publishableKey}</td>
                    <td className="wrap">{p.origins.join(" ")}</td>
                    <td>
                      <AdminTime value={p.createdAt} day />
                    </td>
                    <td className="num">{p.weekLoads.toLocaleString("en-US")}</td>
                    <td>
                      <Link
                        to={`${manageHref(p.id)}#partner-manage`}
                        aria-label={`Manage ${p.name}`}
                        aria-current={p.id === manageId ? "true" : undefined}
                      >
                        Manage
                      </Link>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>
      <EmbedSnippet
        gameUrl={gameUrl}
        partners={partners.filter((p) => !p.disabledAt)}
        events={events}
      />
    </>
  );
}

function StatusBadge({ partner }: { partner: Partner }) {
  const status = partner.disabledAt ? "disabled" : "active";
  return (
    <span className="admin-status" data-status={status}>
      {status}
    </span>
  );
}

function Notice({ result }: { result: PartnerManageResult }) {
  if (result.ok) {
    return (
      <div className="admin-result admin-result--ok">
        <p>{result.message}</p>
      </div>
    );
  }
  if ("error" in result && !result.field) return <p className="form-error">{result.error}</p>;
  return null;
}

function AddPartner({ posted }: { posted?: PartnerFormResult }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const errors = posted && !posted.ok ? posted.errors : {};
  const values = posted && !posted.ok ? posted.values : { name: "", origins: "" };
  const formRef = useRef<HTMLFormElement>(null);
  const firstError = useRef<HTMLInputElement & HTMLTextAreaElement>(null);

  useEffect(() => {
    if (posted?.ok) formRef.current?.reset();
    else if (posted) firstError.current?.focus();
  }, [posted]);

  return (
    <section className="panel" aria-labelledby="partner-add-title">
      <h2 id="partner-add-title">Add a partner</h2>
      <Form method="post" action="/admin/partners" ref={formRef} className="auth-form" noValidate>
        <input type="hidden" name="intent" value="add" />
        <div className="field">
          <label htmlFor="partner-name">Name</label>
          <input
            id="partner-name"
            name="name"
            type="text"
            required
            maxLength={80}
            defaultValue={values.name}
            ref={errors.name ? firstError : undefined}
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={errors.name ? "partner-name-error" : undefined}
          />
          {errors.name ? (
            <p id="partner-name-error" className="field-error">
              {errors.name}
            </p>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor="partner-origins">Origins</label>
          <textarea
            id="partner-origins"
            name="origins"
            required
            defaultValue={values.origins}
            ref={!errors.name && errors.origins ? firstError : undefined}
            aria-invalid={errors.origins ? true : undefined}
            aria-describedby={`partner-origins-hint${errors.origins ? " partner-origins-error" : ""}`}
          />
          <p id="partner-origins-hint" className="field-hint">
            One per line, exactly as the browser shows the site: https://news.example (no path).
          </p>
          {errors.origins ? (
            <p id="partner-origins-error" className="field-error">
              {errors.origins}
            </p>
          ) : null}
        </div>
        {errors.form ? <p className="form-error">{errors.form}</p> : null}
        <p>
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? "Adding..." : "Add partner"}
          </button>
        </p>
      </Form>
      <div role="status" aria-live="polite">
        {posted?.ok ? (
          <div className="admin-result admin-result--ok">
            <p>
              {posted.name} added. Publishable key:{" "}
              <code className="admin-key">{posted.publishableKey}</code>
            </p>
          </div>
        ) : null}
      </div>
    </section>
  );
}

/** One partner's changes, each a plain form posting to this page (`intent` names the change). */
function ManagePartner({
  partner,
  posted,
  children,
}: {
  partner: Partner;
  posted?: PartnerManageResult;
  /** Shown under the forms: the partner's stats. */
  children?: ReactNode;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const action = manageHref(partner.id);
  const confirm = posted && !posted.ok && "confirm" in posted ? posted.confirm : undefined;
  const fieldError = posted && !posted.ok && "error" in posted && posted.field ? posted : undefined;
  const nameError = fieldError?.field === "name" ? fieldError : undefined;
  const originsError = fieldError?.field === "origins" ? fieldError : undefined;
  const confirmRef = useRef<HTMLHeadingElement>(null);
  const errorRef = useRef<HTMLInputElement & HTMLTextAreaElement>(null);

  useEffect(() => {
    if (confirm) confirmRef.current?.focus();
    else if (fieldError) errorRef.current?.focus();
  }, [confirm, fieldError]);

  return (
    <section className="panel" id="partner-manage" aria-labelledby="partner-manage-title">
      <h2 id="partner-manage-title">Manage {partner.name}</h2>
      <p>
        <StatusBadge partner={partner} /> Publishable key:{" "}
        <code className="admin-key">{partner.publishableKey}</code>
      </p>
      <div role="status" aria-live="polite">
        {posted ? <Notice result={posted} /> : null}
      </div>
      {confirm ? (
        <ConfirmChange confirm={confirm} action={action} busy={busy} headingRef={confirmRef} />
      ) : (
        <>
          <NameForm
            partner={partner}
            action={action}
            busy={busy}
            error={nameError}
            errorRef={errorRef}
          />
          <OriginsForm
            partner={partner}
            action={action}
            busy={busy}
            error={originsError}
            errorRef={errorRef}
          />
          <StatusForm partner={partner} action={action} busy={busy} />
        </>
      )}
      {children}
      <p>
        <Link to="/admin/partners">Close</Link>
      </p>
    </section>
  );
}

type Confirm = Extract<PartnerManageResult, { confirm: unknown }>["confirm"];
type FieldError = { error: string; value?: string };
type FormProps = {
  partner: Partner;
  action: string;
  busy: boolean;
};
type ErrorRef = RefObject<HTMLInputElement & HTMLTextAreaElement>;

/** A change that needs a second look (remove origins, disable, delete): what it does, then go. */
function ConfirmChange(props: {
  confirm: Confirm;
  action: string;
  busy: boolean;
  headingRef: RefObject<HTMLHeadingElement>;
}) {
  const { confirm, action, busy } = props;
  return (
    <div className="admin-confirm">
      <h3 id="partner-confirm-title" tabIndex={-1} ref={props.headingRef}>
        {confirm.title}
      </h3>
      <p>{confirm.message}</p>
      {confirm.items.length > 0 ? (
        <ul>
          {confirm.items.map((o) => (
            <li key={o}>
              <code>{o}</code>
            </li>
          ))}
        </ul>
      ) : null}
      <Form method="post" action={action} className="admin-row-actions">
        {Object.entries(confirm.fields).map(([k, v]) => (
          <input key={k} type="hidden" name={k} value={v} />
        ))}
        <input type="hidden" name="confirm" value="yes" />
        <button type="submit" className="button button--primary" disabled={busy}>
          {confirm.button}
        </button>
        <Link to={action} className="button button--ghost">
          Cancel
        </Link>
      </Form>
    </div>
  );
}

/** Which partner a form changes: every form on the panel posts it. */
function PartnerId({ partner }: { partner: Partner }) {
  return <input type="hidden" name="partnerId" value={partner.id} />;
}

/** Renaming: the name on the dashboard and in the partner's stats. */
function NameForm(props: FormProps & { error: FieldError | undefined; errorRef: ErrorRef }) {
  const { partner, action, busy, error: nameError, errorRef } = props;
  return (
    <Form method="post" action={action} className="auth-form" noValidate>
      <PartnerId partner={partner} />
      <div className="field">
        <label htmlFor="manage-name">Name</label>
        <input
          key={partner.name}
          id="manage-name"
          name="name"
          type="text"
          required
          maxLength={80}
          defaultValue={nameError?.value ?? partner.name}
          ref={nameError ? errorRef : undefined}
          aria-invalid={nameError ? true : undefined}
          aria-describedby={nameError ? "manage-name-error" : undefined}
        />
        {nameError ? (
          <p id="manage-name-error" className="field-error">
            {nameError.error}
          </p>
        ) : null}
      </div>
      <p>
        <button
          type="submit"
          name="intent"
          value="rename"
          className="button button--primary"
          disabled={busy}
        >
          Save name
        </button>
      </p>
    </Form>
  );
}

/** The sites allowed to use the partner's widgets and team builder. */
function OriginsForm(props: FormProps & { error: FieldError | undefined; errorRef: ErrorRef }) {
  const { partner, action, busy, error: originsError, errorRef } = props;
  return (
    <Form method="post" action={action} className="auth-form" noValidate>
      <PartnerId partner={partner} />
      <div className="field">
        <label htmlFor="manage-origins">Origins</label>
        <textarea
          key={partner.origins.join(" ")}
          id="manage-origins"
          name="origins"
          required
          defaultValue={originsError?.value ?? partner.origins.join("\n")}
          ref={originsError ? errorRef : undefined}
          aria-invalid={originsError ? true : undefined}
          aria-describedby={`manage-origins-hint${originsError ? " manage-origins-error" : ""}`}
        />
        <p id="manage-origins-hint" className="field-hint">
          One per line (https://news.example, no path). A removed origin loses the API and the team
          builder at once; you are asked to confirm first.
        </p>
        {originsError ? (
          <p id="manage-origins-error" className="field-error">
            {originsError.error}
          </p>
        ) : null}
      </div>
      <p>
        <button
          type="submit"
          name="intent"
          value="origins"
          className="button button--primary"
          disabled={busy}
        >
          Save origins
        </button>
      </p>
    </Form>
  );
}

/** Disable (keeps key and origins), or enable and delete a disabled partner. */
function StatusForm({ partner, action, busy }: FormProps) {
  const buttons: [intent: string, kind: "primary" | "ghost", label: string][] = partner.disabledAt
    ? [
        ["enable", "primary", `Enable ${partner.name}`],
        ["delete", "ghost", `Delete ${partner.name}...`],
      ]
    : [["disable", "ghost", `Disable ${partner.name}...`]];
  return (
    <>
      {partner.disabledAt ? (
        <p>
          Disabled on <AdminTime value={partner.disabledAt} day />: its sites get no API access and
          its team builder is refused. Enabling it brings its pages back with the same key; deleting
          it cannot be undone.
        </p>
      ) : (
        <p>
          Disabling stops this partner's widgets and team builder at once and keeps its key and
          origins, so it can be enabled again. Only a disabled partner can be deleted.
        </p>
      )}
      <Form method="post" action={action} className="admin-row-actions">
        <PartnerId partner={partner} />
        {buttons.map(([intent, kind, label]) => (
          <button
            key={intent}
            type="submit"
            name="intent"
            value={intent}
            className={`button button--${kind}`}
            disabled={busy}
          >
            {label}
          </button>
        ))}
      </Form>
    </>
  );
}
