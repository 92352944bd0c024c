/** /admin/users: find players; accept, block, make them admin or remove their admin rights. */
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AdminTable, num } from "~/features/admin/admin-table";
import { usersPage } from "~/features/admin/lists.server";
import { Pager } from "~/features/admin/pager";
import { UserRow } from "~/features/admin/user-row";
import { changeUser } from "~/features/admin/users.server";
import { requireAdmin } from "~/utils/auth.server";
import { readForm } from "~/utils/request.server";

const PAGE_SIZE = 50;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request, context);
  return usersPage(request, context, PAGE_SIZE, admin.id);
}

export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const { result, status } = await changeUser(await readForm(request), context, admin);
  return data(result, { status });
}

export default function AdminUsers() {
  const { me, q, page, total, users } = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
  return (
    <section className="panel" aria-labelledby="users-title">
      <h2 id="users-title">Users</h2>
      <Form method="get" className="admin-filters" role="search" aria-label="Find users">
        <div className="field">
          <label htmlFor="users-q">E-mail or username</label>
          <input id="users-q" name="q" type="search" defaultValue={q} maxLength={100} />
        </div>
        <button type="submit" className="button button--ghost">
          Search
        </button>
      </Form>
      <p className="muted">
        {total} {total === 1 ? "user" : "users"}
        {q ? ` matching "${q}"` : ""}. Blocked users cannot log in; blocking signs them out.
      </p>
      {users.length === 0 ? (
        <p>{q ? "Nobody matches that search." : "No users yet."}</p>
      ) : (
        <AdminTable
          label="User table"
          columns={["User", "E-mail", "Role", "Status", num("Points"), "Joined", "Actions"]}
          rows={users}
        >
          {(u) => (
            <UserRow
              key={u.id}
              user={u}
              isMe={u.id === me}
              posted={posted && posted.userId === u.id ? posted : undefined}
            />
          )}
        </AdminTable>
      )}
      <Pager page={page} pageSize={PAGE_SIZE} total={total} />
    </section>
  );
}
