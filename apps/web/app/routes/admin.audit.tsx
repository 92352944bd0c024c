/** /admin/audit: who changed what, when (every admin write, from the web and the CLI). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { AdminTable } from "~/features/admin/admin-table";
import { AdminTime } from "~/features/admin/admin-time";
import { auditPage } from "~/features/admin/lists.server";
import { Pager } from "~/features/admin/pager";
import { requireAdmin } from "~/utils/auth.server";

const PAGE_SIZE = 50;

/** The actions admins can filter by (others still show in the full list). */

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  return auditPage(request, context, PAGE_SIZE);
}

export default function AdminAudit() {
  const { action, actions, page, total, entries } = useLoaderData<typeof loader>();
  return (
    <section className="panel" aria-labelledby="audit-title">
      <h2 id="audit-title">Audit log</h2>
      <Form method="get" className="admin-filters" role="search" aria-label="Filter the log">
        <div className="field">
          <label htmlFor="audit-action">Action</label>
          <select id="audit-action" name="action" defaultValue={action}>
            <option value="">All actions</option>
            {actions.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button button--ghost">
          Show
        </button>
      </Form>
      {entries.length === 0 ? (
        <p>Nothing recorded yet.</p>
      ) : (
        <AdminTable
          label="Audit log table"
          columns={["When", "Who", "Action", "Target", "Detail"]}
          rows={entries}
        >
          {(e) => (
            <tr key={e.id}>
              <td>
                <AdminTime value={e.createdAt} />
              </td>
              <td>{e.actor}</td>
              <td>{e.action}</td>
              <td>{e.target}</td>
              <td className="wrap admin-detail">{e.detail}</td>
            </tr>
          )}
        </AdminTable>
      )}
      <Pager page={page} pageSize={PAGE_SIZE} total={total} />
    </section>
  );
}
