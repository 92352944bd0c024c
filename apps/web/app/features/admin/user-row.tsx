/** A user's row on /admin/users: who they are, and buttons to accept, block or change their role. */
import { useFetcher } from "@remix-run/react";
import { AdminTime } from "./admin-time";
import type { usersPage } from "./lists.server";
import type { UserFormResult } from "./users.server";

type Row = Awaited<ReturnType<typeof usersPage>>["users"][number];

/** Posts to the page's action in the background (one fetcher per user); `posted`: without JS. */
export function UserRow({
  user,
  isMe,
  posted,
}: {
  user: Row;
  isMe: boolean;
  posted?: UserFormResult;
}) {
  const fetcher = useFetcher<UserFormResult>({ key: `admin-user-${user.id}` });
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
