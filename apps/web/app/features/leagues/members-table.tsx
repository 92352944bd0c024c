/** A league's members table, on the league card and on the invitation page. */
import type { ReactNode } from "react";

export interface MembersTableRow {
  username: string;
  score: number;
  isOwner: boolean;
  /** The viewer's own row (the card marks it). */
  isYou?: boolean;
}

const STATUS_LABEL = { accepted: "Accepted" } as const;

/**
 * `withStatus`: the card's Status column (members of a league the viewer belongs to).
 * `action`: a last column with a control per row (the owner's Remove), empty where it returns null.
 */
export function MembersTable<Row extends MembersTableRow & { status?: keyof typeof STATUS_LABEL }>({
  members,
  withStatus = false,
  action,
}: {
  members: readonly Row[];
  withStatus?: boolean;
  action?: (member: Row) => ReactNode;
}) {
  return (
    <table className="lg-members">
      <caption>Members</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Score</th>
          {withStatus && <th scope="col">Status</th>}
          {action && (
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          )}
        </tr>
      </thead>
      <tbody>
        {members.map((m) => (
          <tr key={m.username} className={m.isYou ? "lg-members__you" : undefined}>
            <th scope="row">
              {m.username}
              {m.isOwner && <span className="lg-tag">owner</span>}
              {m.isYou && <span className="lg-tag">you</span>}
            </th>
            <td>{m.score}</td>
            {withStatus && <td>{m.status ? STATUS_LABEL[m.status] : null}</td>}
            {action && <td className="lg-members__action">{action(m)}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
