import { useId } from "react";

export interface BarDatum {
  /** Stable identity (an event id). */
  id: string | number;
  /** Short label under the bar ("R1"). */
  label: string;
  /** Full name, for the tooltip, the text alternative and the table ("Round 1: Windrock"). */
  name: string;
  value: number;
}

export interface BarChartProps {
  data: readonly BarDatum[];
  /** What the chart shows, e.g. "Points per event". Also the table's caption. */
  title: string;
  /** Unit after each value in words ("points"); default "points". */
  unit?: string;
  /** Formats a value for labels; default: whole numbers with separators. */
  format?: (value: number) => string;
  /** Shown instead of the chart when there is no data. */
  emptyMessage?: string;
  /** Header of the label column in the text table; default "Event". */
  labelHeader?: string;
}

const W = 640;
const H = 240;
const PAD = { top: 24, right: 8, bottom: 36, left: 44 };

const integer = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/** Round axis steps (1, 2, 5 x 10^k) giving at most `max` ticks above zero. */
export function niceTicks(top: number, max = 4): number[] {
  if (!(top > 0)) return [0];
  const raw = top / max;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? raw;
  const ticks: number[] = [];
  for (let v = 0; v < top + step; v += step) {
    ticks.push(v);
    if (v >= top) break;
  }
  return ticks;
}

/**
 * A hand-drawn SVG column chart (no chart library). The picture is one `role="img"` with a text
 * alternative listing every value; the same numbers are in a table for screen readers and for
 * copying. Scales to its container, so it fits a 360 px phone.
 */
export function BarChart({
  data,
  title,
  unit = "points",
  format,
  emptyMessage,
  labelHeader = "Event",
}: BarChartProps) {
  const id = useId();
  const show = format ?? ((v: number) => integer.format(v));
  if (data.length === 0) {
    return <p className="chart-empty">{emptyMessage ?? "Nothing to show yet."}</p>;
  }
  const ticks = niceTicks(Math.max(...data.map((d) => d.value), 0));
  const top = ticks.at(-1) || 1;
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const slot = plotW / data.length;
  const barW = Math.min(56, slot * 0.64);
  const y = (v: number) => PAD.top + plotH - (Math.max(0, v) / top) * plotH;
  const summary = data.map((d) => `${d.name}: ${show(d.value)} ${unit}`).join("; ");

  return (
    <figure className="chart">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        className="chart-svg"
        preserveAspectRatio="xMidYMid meet"
      >
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{summary}.</desc>
        {ticks.map((t) => (
          <g key={t} className="chart-grid">
            <line x1={PAD.left} x2={W - PAD.right} y1={y(t)} y2={y(t)} />
            <text x={PAD.left - 6} y={y(t)} dy="0.32em" textAnchor="end">
              {show(t)}
            </text>
          </g>
        ))}
        {data.map((d, i) => {
          const cx = PAD.left + slot * i + slot / 2;
          const barTop = y(d.value);
          return (
            <g key={d.id} className="chart-bar">
              <title>{`${d.name}: ${show(d.value)} ${unit}`}</title>
              <rect
                x={cx - barW / 2}
                y={barTop}
                width={barW}
                height={Math.max(0, PAD.top + plotH - barTop)}
                rx="3"
              />
              <text className="chart-value" x={cx} y={barTop - 6} textAnchor="middle">
                {show(d.value)}
              </text>
              <text className="chart-label" x={cx} y={H - PAD.bottom + 18} textAnchor="middle">
                {d.label}
              </text>
            </g>
          );
        })}
        <line
          className="chart-axis"
          x1={PAD.left}
          x2={W - PAD.right}
          y1={PAD.top + plotH}
          y2={PAD.top + plotH}
        />
      </svg>
      <figcaption className="chart-caption">{title}</figcaption>
      {/* Hidden on a wrapper: a table ignores the 1px width and would widen the page. */}
      <div className="visually-hidden">
        <table>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">{labelHeader}</th>
              <th scope="col">{unit.charAt(0).toUpperCase() + unit.slice(1)}</th>
            </tr>
          </thead>
          <tbody>
            {data.map((d) => (
              <tr key={d.id}>
                <th scope="row">{d.name}</th>
                <td>{show(d.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
