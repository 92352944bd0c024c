import { formatPrice } from "@game/core/format";
import { sellingPrice } from "@game/core/selling-price";
import type { TeamSeasonStatus } from "@game/db";

const signed = (v: number) => (v > 0 ? `+${formatPrice(v)}` : `-${formatPrice(-v)}`);

/**
 * The team since the last round: a plain list of what to fix (a draft, a racer out), then each
 * racer's price paid against today's, and what selling them gives back (docs/decisions/0141).
 * With `foldPrices` (the team page, where the builder comes first) the prices fold into a
 * `<details>`, closed until opened; what to fix always shows.
 */
export function SeasonChanges({
  season,
  foldPrices = false,
}: {
  season: TeamSeasonStatus;
  foldPrices?: boolean;
}) {
  const moved = season.racers.some((r) => r.now !== r.paid || r.out);
  if (!season.previous && season.fixes.length === 0 && !moved) return null;
  const since = season.previous ? `Since ${season.previous.name}` : "Changes to your team";
  const fixes = season.fixes.length > 0;
  const carried =
    !fixes && season.previous ? (
      <p>
        Your team was carried over from {season.previous.name} at the prices you paid. It plays as
        it is unless you change it before the lock.
      </p>
    ) : null;
  const prices =
    season.racers.length > 0 ? (
      <>
        <table className="table season-changes__table">
          <caption>
            Prices: what you paid, what the racer costs today and what selling them gives back
          </caption>
          <thead>
            <tr>
              <th scope="col">Racer</th>
              <th scope="col" className="num">
                Paid
              </th>
              <th scope="col" className="num">
                Today
              </th>
              <th scope="col" className="num">
                Sells for
              </th>
            </tr>
          </thead>
          <tbody>
            {season.racers.map((r) => (
              <tr key={r.id}>
                <th scope="row">
                  {r.name}
                  {r.out ? <span className="season-changes__out"> (withdrawn)</span> : null}
                </th>
                <td className="num">{formatPrice(r.paid)}</td>
                <td className="num">
                  {formatPrice(r.now)}
                  {r.now !== r.paid ? ` (${signed(r.now - r.paid)})` : ""}
                </td>
                <td className="num">{formatPrice(sellingPrice(r.paid, r.now))}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="muted">
          Your bank counts the prices you paid. Selling a racer gives back today's price if it fell,
          or what you paid plus half the rise if it rose; buying one costs today's price.
        </p>
      </>
    ) : null;
  const fold = foldPrices && prices !== null;
  return (
    <div className="season-changes">
      {/* Folded without fixes, the summary names the round: one line before the builder. */}
      {fold && !fixes ? null : <h3 id="season-changes-heading">{since}</h3>}
      {fixes ? (
        <div className="callout callout--warning" role="note">
          <p>
            <strong>
              {season.draft
                ? "Your team does not fit the rules any more and will not play until you fix it:"
                : "Your team needs a change before the lock:"}
            </strong>
          </p>
          <ul>
            {season.fixes.map((fix) => (
              <li key={fix}>{fix}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {fold ? (
        <details className="season-changes__prices">
          <summary>
            {fixes ? "Prices you paid and today's" : `${since}: prices you paid and today's`}
          </summary>
          {carried}
          {prices}
        </details>
      ) : (
        <>
          {carried}
          {prices}
        </>
      )}
    </div>
  );
}
