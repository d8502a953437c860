import { describe, expect, it } from "vitest";
import { formatNumber } from "../../lib/format";
import { ASCENT_EM, chartFrame, DESCENT_EM, EDGE, LABEL_GAP, textWidth } from "./chartFrame";
import { niceTop, ticks } from "./DailyChart";

const W = 480;
const H = 220;
const SIZE = 15;

/** The axis's labels for a busiest day of `max` leads. */
const labelsFor = (max: number) => ticks(niceTop(max)).map(formatNumber);

/** Busiest days from one lead to tens of thousands (and a hundred thousand). */
const MAXIMA = [0, 1, 2, 3, 7, 10, 18, 45, 99, 100, 101, 480, 999, 1000, 2880, 4999, 5001, 9999, 12_000, 25_001, 50_000, 99_999, 100_001];

describe("textWidth", () => {
  it("adds each character's width: digits, separators, anything else a whole em", () => {
    expect(textWidth("", SIZE)).toBe(0);
    expect(textWidth("5,000", SIZE)).toBeCloseTo((4 * 0.65 + 0.33) * SIZE);
    expect(textWidth("2.5", SIZE)).toBeCloseTo((2 * 0.65 + 0.33) * SIZE);
    expect(textWidth("Nov", SIZE)).toBeCloseTo(3 * SIZE);
    expect(textWidth("5,000", 30)).toBeCloseTo(2 * textWidth("5,000", 15));
  });

  it("is never short of DejaVu Sans's widths, the widest system-ui font (0.636 em a digit, 0.318 em a comma)", () => {
    for (const label of ["5,000", "100,000", "2.5", "0"]) {
      const dejaVu = [...label].reduce((w, c) => w + (c === "," || c === "." ? 0.318 : 0.636), 0) * SIZE;
      expect(textWidth(label, SIZE)).toBeGreaterThanOrEqual(dejaVu);
    }
  });
});

describe("chartFrame", () => {
  it("makes the axis as wide as its widest label: the old fixed 44 units were short of 5,000", () => {
    const frame = chartFrame(W, H, ["0", "2,500", "5,000"], SIZE);
    expect(frame.labelX - textWidth("5,000", SIZE)).toBeGreaterThanOrEqual(EDGE);
    expect(frame.left).toBeGreaterThan(44);
    expect(frame.left - frame.labelX).toBe(LABEL_GAP);
    const wider = chartFrame(W, H, ["0", "50,000", "100,000"], SIZE);
    expect(wider.left).toBeGreaterThan(frame.left);
    expect(wider.labelX - textWidth("100,000", SIZE)).toBeGreaterThanOrEqual(EDGE);
    // Small counts leave the plot wider.
    expect(chartFrame(W, H, ["0", "0.5", "1"], SIZE).left).toBeLessThan(frame.left);
  });

  it.each(MAXIMA)("keeps every label inside the image for a busiest day of %s leads", (max) => {
    const labels = labelsFor(max);
    const frame = chartFrame(W, H, labels, SIZE);
    for (const label of labels) expect(frame.labelX - textWidth(label, SIZE), label).toBeGreaterThanOrEqual(EDGE);
    // The top line's label (its baseline tickShift below the line) fits under the image's top.
    expect(frame.top + frame.tickShift - ASCENT_EM * SIZE).toBeGreaterThanOrEqual(EDGE);
    // The dates fit above the image's bottom, and under the plot.
    expect(frame.dateY + DESCENT_EM * SIZE).toBeLessThanOrEqual(H - EDGE);
    expect(frame.dateY - ASCENT_EM * SIZE).toBeGreaterThan(frame.bottom);
    // A plot is left to draw in.
    expect(frame.right - frame.left).toBeGreaterThan(W * 0.75);
    expect(frame.bottom - frame.top).toBeGreaterThan(H * 0.75);
  });

  it("gives whole numbers for the plot's edges, the same on the server and in the browser", () => {
    const frame = chartFrame(W, H, labelsFor(2880), SIZE);
    for (const edge of [frame.left, frame.right, frame.top, frame.bottom]) expect(Number.isInteger(edge)).toBe(true);
    expect(chartFrame(W, H, labelsFor(2880), SIZE)).toEqual(frame);
  });
});
