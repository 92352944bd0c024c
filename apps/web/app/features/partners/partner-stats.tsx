/**
 * A partner's traffic on its page of the dashboard: yesterday in words, widget loads per day as
 * a small chart, and every counter per day in a table (docs/decisions/0092-partner-stats.md).
 */

import { formatDate } from "@game/core/dates";
import { PARTNER_STATS_NOTE } from "@game/core/partners";
import { BarChart } from "~/components/charts/bar-chart";
import { TableScroll } from "~/features/admin/table-scroll";

export interface PartnerStatsDayView {
  day: string;
  widgetLoads: number;
  apiCalls: number;
  signIns: number;
  teamSaves: number;
}

/** What the widget and API figures are worth (docs/decisions/0154), as the CLI says it too. */
export const BROWSER_REPORTED = PARTNER_STATS_NOTE;

/** Days shown on the partner page (today included). */
export const PARTNER_PAGE_DAYS = 14;

const number = new Intl.NumberFormat("en-US");
const plural = (n: number, one: string, many: string) =>
  `${number.format(n)} ${n === 1 ? one : many}`;

/**
 * "Tuesday 3 March 2026" for a `YYYY-MM-DD` day: the counts are per UTC day, so the day is
 * written in UTC (the headings say so), in the game's one date format.
 */
function dayName(day: string): string {
  return formatDate(`${day}T00:00:00Z`, "UTC");
}

export function summary(d: PartnerStatsDayView): string {
  return [
    plural(d.widgetLoads, "widget load", "widget loads"),
    plural(d.apiCalls, "API call", "API calls"),
    plural(d.signIns, "sign-in", "sign-ins"),
    plural(d.teamSaves, "team saved", "teams saved"),
  ].join(", ");
}

export function PartnerStats({ name, days }: { name: string; days: PartnerStatsDayView[] }) {
  const yesterday = days.at(-2);
  const today = days.at(-1);
  return (
    <section className="partner-stats" aria-labelledby="partner-stats-title">
      <h3 id="partner-stats-title">What {name}'s pages brought</h3>
      {yesterday ? (
        <p>
          <strong>Yesterday</strong> ({dayName(yesterday.day)}): {summary(yesterday)}.
        </p>
      ) : null}
      {today ? (
        <p>
          <strong>Today so far</strong>: {summary(today)}.
        </p>
      ) : null}
      <BarChart
        title={`Widget loads per day, last ${days.length} days (UTC)`}
        unit="widget loads"
        labelHeader="Day"
        data={days.map((d) => ({
          id: d.day,
          label: d.day.slice(8),
          name: dayName(d.day),
          value: d.widgetLoads,
        }))}
      />
      <TableScroll label="Partner stats per day">
        <table className="table admin-table">
          <caption className="visually-hidden">{name}: counts per day (UTC)</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Widget loads</th>
              <th scope="col">API calls</th>
              <th scope="col">Sign-ins</th>
              <th scope="col">Team saves</th>
            </tr>
          </thead>
          <tbody>
            {[...days].reverse().map((d) => (
              <tr key={d.day}>
                <th scope="row">
                  <time dateTime={d.day}>{dayName(d.day)}</time>
                </th>
                <td className="num">{number.format(d.widgetLoads)}</td>
                <td className="num">{number.format(d.apiCalls)}</td>
                <td className="num">{number.format(d.signIns)}</td>
                <td className="num">{number.format(d.teamSaves)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <p className="field-hint">
        Counted without cookies or personal data: widgets shown and API calls from the partner's
        origins, readers signed in and teams saved in its team builder. The last few seconds may not
        be in yet.
      </p>
      <p className="field-hint">{BROWSER_REPORTED}</p>
    </section>
  );
}
