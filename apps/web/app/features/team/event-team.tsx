/**
 * The player's team on the event home: its racers, the captain and the bench rider where the
 * competition has them (docs/decisions/0168, 0169), and once scored each racer's points with why.
 */
import { formatPrice } from "@game/core/format";
import { TeamGrid } from "@game/widgets";
import { Link } from "@remix-run/react";
import type { EventHome } from "./event-home.server";
import { CaptainMark } from "./team-marks";
import { TeamPoints } from "./team-points";

export function EventTeam({ home }: { home: EventHome }) {
  const { score, captainId, benchId } = home;
  return (
    <TeamGrid
      racers={home.team}
      readOnly
      racerHref={(r) => `/racers/${r.id}`}
      renderLink={({ href, ...rest }) => <Link to={href} {...rest} />}
      budget={home.budget}
      emptyMessage={
        home.phase === "open"
          ? "You have not picked any riders yet."
          : "You did not pick a team for this event."
      }
      slots={benchId !== null ? home.team.length : undefined}
      renderMeta={
        benchId !== null
          ? (r) => `${r.id === benchId ? "Bench · " : ""}${r.category} · ${formatPrice(r.price)}`
          : undefined
      }
      renderAside={
        score
          ? (r) => (
              <>
                <span className="event-team__run">
                  {score.runs[r.id] ?? (home.provisional ? "Not down yet" : "No result")}
                </span>{" "}
                <TeamPoints
                  points={score.racerPoints[r.id] ?? 0}
                  captain={captainId === r.id}
                  bench={benchId === r.id}
                  autoSub={score.autoSubs[r.id] ?? null}
                  unit=" pts"
                />
              </>
            )
          : captainId !== null
            ? (r) => (r.id === captainId ? <CaptainMark /> : null)
            : undefined
      }
    />
  );
}
