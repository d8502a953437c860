// Where the daily chart's plot and text go, worked out from the text itself. The chart is
// rendered on the server (QuickJS) and hydrated in the browser, so nothing here measures the
// DOM or uses Intl: both sides compute the same numbers from the same characters, and the
// server's HTML is already right. Widths are estimated from each character, never short of
// what the fonts the console's font stack (`system-ui`) finds take: the estimate errs wide,
// which costs a few units of plot.

/** Advance widths in em. Digits: DejaVu Sans's 0.636 em (the font `system-ui` is on Debian,
 * and the widest of the usual ones: Segoe UI, Roboto, Helvetica and San Francisco are narrower),
 * rounded up. Any character not listed counts as a whole em (wider than any letter but the
 * widest capitals), so that a label of another kind is never cut either. */
const DIGIT_EM = 0.65;
const NARROW_EM: Readonly<Record<string, number>> = { ",": 0.33, ".": 0.33, " ": 0.33, "-": 0.37 };
const OTHER_EM = 1;

/** How far a line of text's box reaches above and below its baseline, in em: the font's
 * ascent and descent, which is how browsers box text (DejaVu Sans: 0.93 and 0.24; Noto Sans:
 * 1.07 and 0.29), rounded up. */
export const ASCENT_EM = 1.1;
export const DESCENT_EM = 0.3;
/** A tick label's baseline is this far below its line, in em: the digits sit centred on it. */
export const TICK_SHIFT_EM = 0.35;

/** Room kept between any text and the image's edge. */
export const EDGE = 2;
/** Room between a tick label and the plot. */
export const LABEL_GAP = 6;
/** Room between the plot and the dates under it. */
export const DATE_GAP = 2;
/** Room on the right of the plot (the last date ends at the last column's middle). */
export const RIGHT = 8;

/** The width `text` takes at `fontSize`, estimated from its characters (never short). */
export function textWidth(text: string, fontSize: number): number {
  let em = 0;
  for (const c of text) em += c >= "0" && c <= "9" ? DIGIT_EM : (NARROW_EM[c] ?? OTHER_EM);
  return em * fontSize;
}

/** The plot's box inside a `width` × `height` image, and where the text goes. */
export interface ChartFrame {
  /** The plot's edges, in the image's units. */
  left: number;
  right: number;
  top: number;
  bottom: number;
  /** Where the tick labels end (they are anchored at their end). */
  labelX: number;
  /** How far below its line a tick label's baseline is. */
  tickShift: number;
  /** The baseline of the dates under the plot. */
  dateY: number;
}

/** Two places, enough for an SVG coordinate and the same text on the server and in the browser. */
function round(n: number): number {
  return Math.round(n * 100) / 100;
}

/**
 * The plot's box, so that every tick label fits beside it and the dates fit under it: the
 * axis is as wide as its widest label needs (not a fixed margin), the top line leaves room
 * above its label, the dates' box ends inside the image.
 */
export function chartFrame(width: number, height: number, tickLabels: ReadonlyArray<string>, fontSize: number): ChartFrame {
  const widest = Math.max(0, ...tickLabels.map((l) => textWidth(l, fontSize)));
  const left = Math.ceil(EDGE + widest + LABEL_GAP);
  const tickShift = round(fontSize * TICK_SHIFT_EM);
  const top = Math.ceil(EDGE + fontSize * ASCENT_EM - tickShift);
  const dateY = round(height - EDGE - fontSize * DESCENT_EM);
  const bottom = Math.floor(dateY - fontSize * ASCENT_EM - DATE_GAP);
  return { left, right: width - RIGHT, top, bottom, labelX: left - LABEL_GAP, tickShift, dateY };
}
