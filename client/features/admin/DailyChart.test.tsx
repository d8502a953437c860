// The daily chart as the server renders it: every <text> it draws, at its anchor and with its
// estimated width (chartFrame.ts), lies inside the image, for 30 and 90 days and for a busiest
// day from one lead to tens of thousands. The browser's own widths are checked against the
// estimate by the layout gate (e2e/layout.spec.ts).

import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { FunnelSeries } from "../../lib/types";
import { EDGE, textWidth } from "./chartFrame";
import { DailyChart, FONT_SIZE, Legend } from "./DailyChart";

const SERIES: FunnelSeries[] = [
  { label: "HVAC", total: 0 },
  { label: "Roofing", total: 0 },
  { label: "Other", total: 0 },
];

/** `days` days from 2026-01-01, the busiest with `max` leads, the others fewer. */
function chart(days: number, max: number): string {
  const dates = Array.from({ length: days }, (_, d) => {
    const date = new Date(Date.UTC(2026, 0, 1 + d));
    return date.toISOString().slice(0, 10);
  });
  const values = dates.map((_, d) => {
    const total = d === Math.floor(days / 3) ? max : Math.floor((max * (d % 7)) / 9);
    return [Math.ceil(total / 2), Math.floor(total / 3), total - Math.ceil(total / 2) - Math.floor(total / 3)];
  });
  return renderToStaticMarkup(<DailyChart id="c" title="Leads per day" summary="Leads" series={SERIES} dates={dates} values={values} />);
}

interface DrawnText {
  x: number;
  anchor: string;
  text: string;
}

function texts(svg: string): DrawnText[] {
  return Array.from(svg.matchAll(/<text x="([^"]+)" y="[^"]+" text-anchor="(\w+)"[^>]*>([^<]*)<\/text>/g), (m) => ({
    x: Number(m[1]),
    anchor: m[2],
    text: m[3],
  }));
}

function viewBoxWidth(svg: string): number {
  const m = /viewBox="0 0 (\d+) (\d+)"/.exec(svg);
  return Number(m?.[1]);
}

describe("DailyChart", () => {
  it.each([
    [30, 1],
    [30, 3],
    [30, 2880],
    [30, 12_345],
    [30, 60_000],
    [90, 1],
    [90, 480],
    [90, 4999],
    [90, 25_000],
    [90, 99_999],
  ])("draws every label inside the image (%s days, busiest day %s leads)", (days, max) => {
    const svg = chart(days, max);
    const width = viewBoxWidth(svg);
    const drawn = texts(svg);
    // Three axis labels and three dates.
    expect(drawn).toHaveLength(6);
    for (const t of drawn) {
      const w = textWidth(t.text, FONT_SIZE);
      const [from, to] = t.anchor === "end" ? [t.x - w, t.x] : t.anchor === "start" ? [t.x, t.x + w] : [t.x - w / 2, t.x + w / 2];
      expect(from, `${t.text} starts inside`).toBeGreaterThanOrEqual(EDGE);
      expect(to, `${t.text} ends inside`).toBeLessThanOrEqual(width - EDGE);
    }
    expect(svg).not.toContain("NaN");
  });

  it("labels the axis with the top and half of it", () => {
    const labels = texts(chart(30, 2880))
      .filter((t) => t.anchor === "end" && /^[\d,.]+$/.test(t.text))
      .map((t) => t.text);
    expect(labels).toEqual(["0", "2,500", "5,000"]);
  });

  it("renders the same markup every time (the server's HTML is what the browser hydrates)", () => {
    expect(chart(90, 12_345)).toBe(chart(90, 12_345));
  });
});

describe("Legend", () => {
  it("draws its swatches without inline styles, which the console's CSP refuses", () => {
    const html = renderToStaticMarkup(<Legend series={SERIES} label="Totals" />);
    expect(html).not.toContain("style=");
    expect(html).toContain('fill="#1d4ed8"');
    expect(html).toContain('fill="#64748b"');
  });
});
