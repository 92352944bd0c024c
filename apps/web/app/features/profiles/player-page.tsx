/** A player's public page (/players/:username), from `loadPlayerPage`. */
import { TeamGrid } from "@game/widgets";
import { Link } from "@remix-run/react";
import { BarChart } from "~/components/charts/bar-chart";
import { count, movementText, ordinal } from "~/components/charts/labels";
import { competitionHref } from "~/features/competitions/competition-list";
import { disciplineAndSeason } from "~/features/competitions/competition-text";
import { GameBackdrop } from "~/features/game/game-backdrop";
import {
  competitionRankingHref,
  PLAYERS_RANKING,
  rankingQuery,
} from "~/features/rankings/ranking-links";
import { TeamPoints, transfersText } from "~/features/team/team-points";
import type { loadPlayerPage } from "./profiles.server";

type PlayerData = Awaited<ReturnType<typeof loadPlayerPage>>;

function resultText(result: number | string | null): string {
  if (result === null) return "no result";
  return typeof result === "number" ? ordinal(result) : result;
}

/** A player's page: their standing, rounds, competitions and the team of each scored round. */
export function PlayerPage({ data }: { data: PlayerData }) {
  const { game, competition, player, competitions, events } = data;
  const name = player.username || "Anonymous";
  return (
    <GameBackdrop
      game={game}
      title={name}
      subtitle={
        player.ranking
          ? `${ordinal(player.ranking)} in ${competition?.name ?? "the season"}`
          : "Not ranked yet"
      }
    >
      <div className="panel">
        <PlayerStats name={name} player={player} competition={competition} events={events} />
        <BarChart
          title={`${name}'s points per event`}
          data={events.map((e) => ({ id: e.id, label: e.label, name: e.name, value: e.points }))}
          emptyMessage={`${name} has no scored events yet: points appear when an event's results are in.`}
        />
        {events.length > 0 ? <RoundsTable events={events} /> : null}
      </div>
      <CompetitionsPanel name={name} competitions={competitions} />
      {[...events].reverse().map((e) => (
        <ScoredRound key={e.id} round={e} />
      ))}
    </GameBackdrop>
  );
}

/** Rank and points in the default competition, rounds scored, the best one, the movement. */
function PlayerStats(
  props: Pick<PlayerData, "player" | "competition" | "events"> & { name: string },
) {
  const { player, competition, events } = props;
  const best = events.reduce<(typeof events)[number] | null>(
    (b, e) => (b === null || e.points > b.points ? e : b),
    null,
  );
  const moved = movementText(player.ranking ?? 0, player.previousRanking);
  return (
    <>
      <dl className="stat-list">
        <div>
          <dt>Season rank</dt>
          <dd>
            {player.ranking ? ordinal(player.ranking) : "Unranked"}
            {competition ? <span className="stat-list__note">{competition.name}</span> : null}
          </dd>
        </div>
        <div>
          <dt>Points</dt>
          <dd>
            {count(player.points)}
            {competition ? <span className="stat-list__note">{competition.name}</span> : null}
          </dd>
        </div>
        <div>
          <dt>Events scored</dt>
          <dd>{events.length}</dd>
        </div>
        <div>
          <dt>Best event</dt>
          <dd>{best ? `${count(best.points)}` : "-"}</dd>
        </div>
      </dl>
      {player.ranking && moved ? <p className="muted">Season rank: {moved}.</p> : null}
    </>
  );
}

/** Each scored round with the player's standing in its competition after it. */
function RoundsTable({ events }: Pick<PlayerData, "events">) {
  return (
    <table className="table">
      <caption>Each round, and the standing in its competition after it</caption>
      <thead>
        <tr>
          <th scope="col">Round</th>
          <th scope="col" className="num">
            Points
          </th>
          <th scope="col" className="num">
            Season points
          </th>
          <th scope="col" className="num">
            Season rank
          </th>
        </tr>
      </thead>
      <tbody>
        {events.map((e) => (
          <tr key={e.id}>
            <th scope="row">
              {e.name}
              <span className="table-note">{e.competitionName}</span>
            </th>
            <td className="num">{count(e.points)}</td>
            <td className="num">{count(e.seasonPoints)}</td>
            <td className="num">{e.seasonRank ? ordinal(e.seasonRank) : "-"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Every competition the player is ranked in, latest first: final or so far. */
function CompetitionsPanel({
  name,
  competitions,
}: Pick<PlayerData, "competitions"> & { name: string }) {
  return (
    <section className="panel" aria-labelledby="competitions-title">
      <h2 id="competitions-title">Competitions</h2>
      {competitions.length === 0 ? (
        <p className="muted">{name} has no place in a competition's ranking yet.</p>
      ) : (
        <table className="table">
          <caption className="visually-hidden">
            {name}'s competitions, latest first, with their place and points
          </caption>
          <thead>
            <tr>
              <th scope="col">Competition</th>
              <th scope="col">Place</th>
              <th scope="col" className="num">
                Points
              </th>
            </tr>
          </thead>
          <tbody>
            {competitions.map((c) => {
              const over = c.state === "finished" || c.state === "archived";
              return (
                <tr key={c.slug}>
                  <th scope="row">
                    <Link to={competitionRankingHref(c.slug)}>{c.name}</Link>
                    <span className="table-note">{disciplineAndSeason(c)}</span>
                  </th>
                  <td>
                    {ordinal(c.rank)} of {count(c.players)}
                    <span className="table-note">{over ? "Final" : "So far"}</span>
                  </td>
                  <td className="num">{count(c.points)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** One scored round: points, place, transfers and the team as it stood at the lock. */
function ScoredRound({ round: e }: { round: PlayerData["events"][number] }) {
  return (
    <section className="panel" aria-labelledby={`event-${e.id}`}>
      <h2 id={`event-${e.id}`}>{e.name}</h2>
      <p className="muted">
        <Link to={competitionHref(e.competitionSlug)}>{e.competitionName}</Link> · {count(e.points)}{" "}
        points
        {e.rank ? `, ${ordinal(e.rank)} of ${count(e.players)}` : ""}
        {e.provisional ? " (provisional: results are coming in)" : ""} ·{" "}
        {transfersText(e.transfers)}
        <Link to={`${PLAYERS_RANKING}${rankingQuery({ event: e.id })}`}>Event ranking</Link>
      </p>
      <h3 className="visually-hidden">Team at the lock</h3>
      <TeamGrid
        racers={e.team}
        slots={e.team.length}
        readOnly
        label="Team at the lock"
        racerHref={(r) => `/racers/${r.id}`}
        renderLink={({ href, ...rest }) => <Link to={href} {...rest} />}
        renderMeta={(r) => `${r.bench ? "Bench, " : ""}${r.category}, ${resultText(r.result)}`}
        renderAside={(r) => (
          <TeamPoints
            points={r.points}
            captain={r.captain}
            bench={r.bench}
            autoSub={r.autoSub}
            unit=" pts"
          />
        )}
      />
    </section>
  );
}
