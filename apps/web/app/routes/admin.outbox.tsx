/** /admin/outbox: every e-mail the game sent or kept (without SMTP, mail only goes here). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AdminTable } from "~/features/admin/admin-table";
import { AdminTime } from "~/features/admin/admin-time";
import { outboxPage } from "~/features/admin/lists.server";
import { Pager } from "~/features/admin/pager";
import { requireAdmin } from "~/utils/auth.server";

const PAGE_SIZE = 50;

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  return outboxPage(request, context, PAGE_SIZE);
}

export default function AdminOutbox() {
  const { smtp, page, total, mails } = useLoaderData<typeof loader>();
  return (
    <section className="panel" aria-labelledby="outbox-title">
      <h2 id="outbox-title">Outbox</h2>
      <p className="muted">
        {smtp
          ? "Mail is delivered by SMTP; each message is also kept here with its delivery status."
          : "No SMTP server is configured (SMTP_URL): mail is not delivered, it is kept here."}
      </p>
      {mails.length === 0 ? (
        <p>No e-mail yet.</p>
      ) : (
        <AdminTable label="Mail table" columns={["When", "To", "Message", "Status"]} rows={mails}>
          {(m) => (
            <tr key={m.id}>
              <td>
                <AdminTime value={m.createdAt} />
              </td>
              <td>{m.to}</td>
              <td className="wrap">
                <details>
                  <summary>{m.subject}</summary>
                  {/* Plain text only: mail bodies are never rendered as HTML here. */}
                  <pre className="admin-mail-body">{m.text}</pre>
                </details>
              </td>
              <td>
                <span className="admin-status" data-status={m.status}>
                  {m.status}
                </span>
                {m.error ? <p className="field-hint">{m.error}</p> : null}
              </td>
            </tr>
          )}
        </AdminTable>
      )}
      <Pager page={page} pageSize={PAGE_SIZE} total={total} />
    </section>
  );
}
