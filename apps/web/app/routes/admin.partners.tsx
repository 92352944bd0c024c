/** /admin/partners: sites allowed to embed the widgets, each with its publishable key. */
import { listEvents, listPartners } from "@game/db";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { utcText } from "~/components/admin/pager";
import { createPartner } from "~/components/admin/partners.server";
import { TableScroll } from "~/components/admin/table-scroll";
import { EmbedSnippet } from "~/components/embed-snippet";
import { requireAdmin } from "~/utils/auth.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  const [partners, events] = await Promise.all([listPartners(context.db), listEvents(context.db)]);
  return {
    partners: partners.map((p) => ({ ...p, createdAt: p.createdAt.toISOString() })),
    // For the embed code generator: the game's address and the events to pick from.
    gameUrl: context.env.publicUrl ?? new URL(request.url).origin,
    events: events.map((e) => ({ id: e.id, name: e.name, status: e.status })),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const { result, status } = await createPartner(await request.formData(), context, admin);
  return data(result, { status });
}

export default function AdminPartners() {
  const { partners, gameUrl, events } = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
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
    <>
      <section className="panel" aria-labelledby="partner-add-title">
        <h2 id="partner-add-title">Add a partner</h2>
        <Form method="post" ref={formRef} className="auth-form" noValidate>
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
      <section className="panel" aria-labelledby="partners-title">
        <h2 id="partners-title">Partners</h2>
        {partners.length === 0 ? (
          <p>No partners yet.</p>
        ) : (
          <TableScroll label="Partner table">
            <table className="table admin-table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Publishable key</th>
                  <th scope="col">Origins</th>
                  <th scope="col">Added</th>
                </tr>
              </thead>
              <tbody>
                {partners.map((p) => (
                  <tr key={p.id}>
                    <th scope="row">{p.name}</th>
                    <td className="admin-key">{p.publishableKey}</td>
                    <td className="wrap">{p.origins.join(" ")}</td>
                    <td>{utcText(p.createdAt).slice(0, 10)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>
      <EmbedSnippet gameUrl={gameUrl} partners={partners} events={events} />
    </>
  );
}
