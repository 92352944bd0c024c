/** A racer's public page (/racers/:id), from `loadRacerPage`. */
import { formatPrice } from "@game/core/format";
import { Portrait } from "@game/widgets";
import { Link } from "@remix-run/react";
import { BarChart } from "~/components/charts/bar-chart";
import { count, ordinal } from "~/components/charts/labels";
import { GameBackdrop } from "~/features/game/game-backdrop";
import type { loadRacerPage } from "./profiles.server";
import { RoundNotice } from "./round-notice";

type RacerData = Awaited<ReturnType<typeof loadRacerPage>>;

const percent = new Intl.NumberFormat("en-US", { style: "percent", maximumFractionDigits: 1 });

const share = (e: { pickedBy: number; teams: number }) => (e.teams > 0 ? e.pickedBy / e.teams : 0);

/** A racer's page: their figures, points and price per round, and who picked them. */
export function RacerPage({ data }: { data: RacerData }) {
  const { game, rounds, racer, events } = data;
  const name = `${racer.firstName} ${racer.lastName}`;
  const scored = events.filter((e) => e.settled);
  const total = scored.reduce((sum, e) => sum + (e.points ?? 0), 0);
  return (
    <GameBackdrop
      game={game}
      title={name}
      subtitle={`${racer.category}${racer.origin ? ` · ${racer.origin}` : ""}`}
    >
      <div className="panel">
        <RoundNotice name={name} rounds={rounds} />
        <div className="profile-head">
          {/* The widgets' portrait: the large image, or the racer's avatar as on every page. */}
          <span className="gf-root profile-portrait">
            <Portrait picture={racer.picture} racer={racer} size="large" />
          </span>
          <RacerStats racer={racer} rounds={rounds} total={total} />
        </div>
        <BarChart
          title={`Points ${name} scored per event`}
          data={scored.map((e) => ({
            id: e.id,
            label: e.label,
            name: e.name,
            value: e.points ?? 0,
          }))}
          emptyMessage={`${name} has no scored results yet.`}
        />
        {events.length > 1 ? (
          <BarChart
            title={`${name}'s price per round`}
            unit="price"
            format={formatPrice}
            data={events.map((e) => ({ id: e.id, label: e.label, name: e.name, value: e.price }))}
          />
        ) : null}
        {events.length > 1 ? (
          <p className="muted">
            Prices move between rounds with results (podium +15%, top 10 +8%, DNF or DNS down):{" "}
            <Link to="/about#prices">how prices change</Link>.
          </p>
        ) : null}
      </div>
      <PicksPanel events={events} rounds={rounds} currentId={game?.id} />
    </GameBackdrop>
  );
}

/** The racer's figures: 2024 rank, the price of this entry (and now), points, picks. */
function RacerStats(props: Pick<RacerData, "racer" | "rounds"> & { total: number }) {
  const { racer, rounds, total } = props;
  const { entry, current } = rounds;
  return (
    <dl className="stat-list">
      <div>
        <dt>2024 rank</dt>
        <dd>{racer.rank2024 ? `#${racer.rank2024}` : "Unranked"}</dd>
      </div>
      {/* Each price says its round: an old team's link lands on that round's entry. */}
      <div>
        <dt>{rounds.isCurrent ? "Price now" : "Price"}</dt>
        <dd>
          {formatPrice(entry.price)} <span className="stat-list__note">in {entry.name}</span>
        </dd>
      </div>
      {current ? (
        <div>
          <dt>Price now</dt>
          <dd>
            {formatPrice(current.price)} <span className="stat-list__note">in {current.name}</span>
          </dd>
        </div>
      ) : null}
      <div>
        <dt>Fantasy points</dt>
        <dd>{count(total)}</dd>
      </div>
      {/* This entry's competition so far, and its value for the money (as pickers compare). */}
      <div>
        <dt>Season points</dt>
        <dd>
          {count(racer.seasonPoints)}{" "}
          <span className="stat-list__note">
            {racer.pointsPer100k.toLocaleString("en-US")} per 100,000
          </span>
        </dd>
      </div>
      <div>
        <dt>Picked by</dt>
        <dd>
          {racer.pickedByPercent === null
            ? "Not counted yet"
            : `${racer.pickedByPercent.toLocaleString("en-US")} %`}{" "}
          <span className="stat-list__note">of {entry.name}'s teams</span>
        </dd>
      </div>
    </dl>
  );
}

/** Each round's entry: price, result and points, and the share of teams holding the racer. */
function PicksPanel(
  props: Pick<RacerData, "events" | "rounds"> & { currentId: number | undefined },
) {
  const { events, rounds } = props;
  const { entry } = rounds;
  return (
    <section className="panel" aria-labelledby="picks">
      <h2 id="picks">Picked by</h2>
      {events.length === 0 ? (
        <p className="muted">No events yet.</p>
      ) : (
        <ul className="team-list">
          {events.map((e) => (
            <li key={e.id}>
              <span className="grow">
                <strong>{e.name}</strong>
                {e.racerId === entry.racerId && !rounds.isCurrent ? (
                  <>
                    {" "}
                    <span className="round-tag">This page</span>
                  </>
                ) : null}
                {e.id === props.currentId ? (
                  <>
                    {" "}
                    <span className="round-tag">Current round</span>
                  </>
                ) : null}
                <br />
                <span className="muted">
                  {`Price ${formatPrice(e.price)}. `}
                  {e.settled
                    ? `${typeof e.result === "number" ? ordinal(e.result) : (e.result ?? "No result")}, ${count(e.points ?? 0)} points. `
                    : "Not scored yet. "}
                  {count(e.pickedBy)} of {count(e.teams)} {e.teams === 1 ? "team" : "teams"}
                  {e.teams > 0 ? ` (${percent.format(share(e))})` : ""}
                  {e.settled ? " at the lock" : " so far"}
                </span>
                <span className="pick-bar" aria-hidden="true">
                  <span style={{ width: `${(share(e) * 100).toFixed(1)}%` }} />
                </span>
              </span>
            </li>
          ))}
        </ul>
      )}
      <p>
        <Link to="/view-racers">All racers</Link>
      </p>
    </section>
  );
}
