import { formatNumber } from "../../lib/format";
import type { FunnelSeries } from "../../lib/types";

// A column chart of counts per day, stacked by series, drawn as SVG on the server: it needs
// no JavaScript and scales to its box. The SVG is one image with a name and a summary; the
// figures themselves are in the table beside it. Each series is one <path> of all its
// columns' pieces: a 90-day chart is then a dozen elements, not a thousand, to render per
// request.

/** Series colours (the last one, grey, is for "Other"): told apart without relying on hue alone by their order in the legend and the table. */
export const SERIES_COLORS = ["#1d4ed8", "#d97706", "#047857", "#be185d", "#0e7490", "#64748b"];

const W = 480;
const H = 220;
const LEFT = 44;
const RIGHT = 8;
const TOP = 10;
const BOTTOM = 28;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "2026-11-20" → "Nov 20". */
export function shortDate(date: string): string {
  const [, month, day] = date.split("-");
  const m = MONTHS[Number(month) - 1];
  return m ? `${m} ${Number(day)}` : date;
}

/** The smallest of 1, 2, 5 × 10^n at or above `max` (the chart's top line). */
export function niceTop(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) {
    if (step * power >= max) return step * power;
  }
  return 10 * power;
}

/** The colour of a series' place, "Other" (when present) always grey. */
export function seriesColor(series: ReadonlyArray<FunnelSeries>, index: number): string {
  const last = SERIES_COLORS.length - 1;
  if (series[index]?.label === "Other") return SERIES_COLORS[last];
  return SERIES_COLORS[Math.min(index, last - 1)];
}

export function DailyChart({
  id,
  title,
  summary,
  series,
  dates,
  values,
}: {
  id: string;
  title: string;
  summary: string;
  series: ReadonlyArray<FunnelSeries>;
  dates: ReadonlyArray<string>;
  /** Per day, a count per series (same order as `series`). */
  values: ReadonlyArray<ReadonlyArray<number>>;
}) {
  const totals = values.map((v) => v.reduce((a, b) => a + b, 0));
  const top = niceTop(Math.max(0, ...totals));
  const plotW = W - LEFT - RIGHT;
  const plotH = H - TOP - BOTTOM;
  const step = plotW / Math.max(1, dates.length);
  const barW = step > 4 ? step * 0.8 : step;
  const y = (n: number) => TOP + plotH - (n / top) * plotH;
  const x0 = (d: number) => LEFT + d * step + (step - barW) / 2;
  const middle = Math.floor((dates.length - 1) / 2);
  return (
    <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${id}-title ${id}-desc`} className="h-auto w-full" fontSize="15">
      <title id={`${id}-title`}>{title}</title>
      <desc id={`${id}-desc`}>{summary}</desc>
      {[0, top / 2, top].map((tick) => (
        <g key={tick}>
          <line x1={LEFT} x2={W - RIGHT} y1={y(tick)} y2={y(tick)} stroke="#cbd5e1" strokeWidth="1" />
          <text x={LEFT - 6} y={y(tick) + 4} textAnchor="end" fill="#334155">
            {formatNumber(tick)}
          </text>
        </g>
      ))}
      {series.map((_, s) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a series is its place in the figures (`values` is indexed by it)
        <path key={s} d={seriesPath(values, s, x0, barW, y)} fill={seriesColor(series, s)} />
      ))}
      {dates.length > 0 &&
        [0, middle, dates.length - 1]
          .filter((d, i, all) => all.indexOf(d) === i)
          .map((d) => (
            <text
              key={d}
              x={LEFT + d * step + step / 2}
              y={H - 8}
              textAnchor={d === 0 ? "start" : d === dates.length - 1 ? "end" : "middle"}
              fill="#334155"
            >
              {shortDate(dates[d])}
            </text>
          ))}
    </svg>
  );
}

/** The outline of series `s`'s pieces of every day's column, stacked on the series before it. */
export function seriesPath(
  values: ReadonlyArray<ReadonlyArray<number>>,
  s: number,
  x: (day: number) => number,
  width: number,
  y: (n: number) => number,
): string {
  const round = (n: number) => Math.round(n * 100) / 100;
  let d = "";
  values.forEach((counts, day) => {
    const n = counts[s] ?? 0;
    if (n <= 0) return;
    const below = counts.slice(0, s).reduce((a, b) => a + b, 0);
    const top = y(below + n);
    d += `M${round(x(day))} ${round(top)}h${round(width)}v${round(y(below) - top)}h${round(-width)}z`;
  });
  return d;
}

/** The chart's series with their colours and totals. */
export function Legend({ series, label }: { series: ReadonlyArray<FunnelSeries>; label: string }) {
  return (
    <ul aria-label={label} className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-800">
      {series.map((s, i) => (
        <li key={s.label} className="flex items-center gap-2">
          <span aria-hidden="true" className="inline-block h-3 w-3 rounded-sm" style={{ backgroundColor: seriesColor(series, i) }} />
          <span className="break-words">{s.label}</span>
          <span className="font-bold">{formatNumber(s.total)}</span>
        </li>
      ))}
    </ul>
  );
}
