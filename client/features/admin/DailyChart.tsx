import { formatNumber } from "../../lib/format";
import type { FunnelSeries } from "../../lib/types";
import { chartFrame } from "./chartFrame";

// A column chart of counts per day, stacked by series, drawn as SVG on the server: it needs
// no JavaScript and scales to its box. The SVG is one image with a name and a summary; the
// figures themselves are in the table beside it. Each series is one <path> of all its
// columns' pieces: a 90-day chart is then a dozen elements, not a thousand, to render per
// request. The plot's box makes room for the text around it (chartFrame.ts): the axis is as
// wide as its widest label, so no label is cut at the image's edge.

/** Series colours (the last one, grey, is for "Other"): told apart without relying on hue alone by their order in the legend and the table. */
export const SERIES_COLORS = ["#1d4ed8", "#d97706", "#047857", "#be185d", "#0e7490", "#64748b"];

const W = 480;
const H = 220;
/** The text's size, in the image's units (the image scales to its box). */
export const FONT_SIZE = 15;
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

/** The values the axis marks with a line and a label: none, half the top, the top. */
export function ticks(top: number): number[] {
  return [0, top / 2, top];
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
  const marks = ticks(top).map((value) => ({ value, label: formatNumber(value) }));
  const frame = chartFrame(
    W,
    H,
    marks.map((m) => m.label),
    FONT_SIZE,
  );
  const plotW = frame.right - frame.left;
  const plotH = frame.bottom - frame.top;
  const step = plotW / Math.max(1, dates.length);
  const barW = step > 4 ? step * 0.8 : step;
  const y = (n: number) => frame.bottom - (n / top) * plotH;
  const x0 = (d: number) => frame.left + d * step + (step - barW) / 2;
  const middle = Math.floor((dates.length - 1) / 2);
  return (
    <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${id}-title ${id}-desc`} className="h-auto w-full" fontSize={FONT_SIZE}>
      <title id={`${id}-title`}>{title}</title>
      <desc id={`${id}-desc`}>{summary}</desc>
      {marks.map(({ value, label }) => (
        <g key={value}>
          <line x1={frame.left} x2={frame.right} y1={y(value)} y2={y(value)} stroke="#cbd5e1" strokeWidth="1" />
          <text x={frame.labelX} y={y(value) + frame.tickShift} textAnchor="end" fill="#334155">
            {label}
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
              x={frame.left + d * step + step / 2}
              y={frame.dateY}
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
        <li key={s.label} className="flex min-w-0 items-center gap-2">
          {/* A drawn swatch, not a styled box: the console's CSP refuses inline styles. */}
          <svg aria-hidden="true" viewBox="0 0 12 12" className="h-3 w-3 shrink-0">
            <rect width="12" height="12" rx="2" fill={seriesColor(series, i)} />
          </svg>
          <span className="min-w-0 [overflow-wrap:anywhere]">{s.label}</span>
          <span className="font-bold">{formatNumber(s.total)}</span>
        </li>
      ))}
    </ul>
  );
}
