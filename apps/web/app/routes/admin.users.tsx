/** /admin/users: find players; accept, block, make them admin or remove their admin rights. */
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useFetcher, useLoaderData } from "@remix-run/react";
import { AdminTable, num } from "~/features/admin/admin-table";
import { AdminTime } from "~/features/admin/admin-time";
import { usersPage } from "~/features/admin/lists.server";
import { Pager } from "~/features/admin/pager";
import { changeUser, type UserFormResult } from "~/features/admin/users.server";
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

type Row = ReturnType<typeof useLoaderData<typeof loader>>["users"][number];

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

function UserRow({ user, isMe, posted }: { user: Row; isMe: boolean; posted?: UserFormResult }) {
  const fetcher = useFetcher<typeof action>({ key: `admin-user-${user.id}` });
  const result = fetcher.data ?? posted;
  const busy = fetcher.state !== "idle";
  const button = (intent: string, label: string, danger = false) => (
    <button
      type="submit"
      name="intent"
      value={intent}
      className={`button ${danger ? "button--ghost" : "button--primary"}`}
      disabled={busy}
      aria-label={`${label} ${user.username}`}
    >
      {label}
    </button>
  );
  return (
    <tr>
      <th scope="row">
        {user.username}
        {isMe ? " (you)" : ""}
      </th>
      <td>{user.email}</td>
      <td>{user.role}</td>
      <td>
        <span className="admin-status" data-status={user.accepted ? "accepted" : "blocked"}>
          {user.accepted ? "accepted" : "blocked"}
        </span>
      </td>
      <td className="num">{user.points}</td>
      <td>
        <AdminTime value={user.createdAt} day />
      </td>
      <td>
        <fetcher.Form method="post" className="admin-row-actions">
          <input type="hidden" name="userId" value={user.id} />
          {user.accepted
            ? isMe
              ? null
              : button("block", "Block", true)
            : button("accept", "Accept")}
          {user.role === "admin"
            ? isMe
              ? null
              : button("revoke-admin", "Remove admin", true)
            : button("grant-admin", "Make admin", true)}
        </fetcher.Form>
        <div role="status" aria-live="polite">
          {result ? (
            <p className={result.ok ? "admin-result admin-result--ok" : "form-error"}>
              {result.ok ? result.message : result.error}
            </p>
          ) : null}
        </div>
      </td>
    </tr>
  );
}
