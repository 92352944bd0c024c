/**
 * A competition's podium as a small table (place, player, points): the hall of fame and the
 * competition page show it. Ties share a place, so a podium can hold more than three players.
 */
import { Link } from "@remix-run/react";
import { count, ordinal } from "~/components/charts/labels";

export interface PodiumPlaceView {
  rank: number;
  username: string;
  points: number;
}

export function PodiumTable({
  podium,
  caption,
  hideCaption = false,
}: {
  podium: readonly PodiumPlaceView[];
  caption: string;
  hideCaption?: boolean;
}) {
  return (
    <table className="table podium">
      <caption className={hideCaption ? "visually-hidden" : undefined}>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Place</th>
          <th scope="col">Player</th>
          <th scope="col" className="num">
            Points
          </th>
        </tr>
      </thead>
      <tbody>
        {podium.map((p) => (
          <tr key={p.username} data-rank={p.rank}>
            <td>{ordinal(p.rank)}</td>
            <th scope="row">
              <Link to={`/players/${encodeURIComponent(p.username)}`}>{p.username}</Link>
            </th>
            <td className="num">{count(p.points)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
