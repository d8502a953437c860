// When we call a visitor back (docs/product.md, "The callback request"): the instant window is
// 08:00 up to before 20:00 on the visitor's own clock; otherwise the request is queued
// until the next window start, 8:00 AM local (today if before 08:00, else tomorrow).

export const WINDOW_START_HOUR = 8;
export const WINDOW_END_HOUR = 20;

export type CallbackWindow = { status: "instant" } | { status: "queued"; nextStart: Date; day: "today" | "tomorrow" };

export function callbackWindow(now: Date): CallbackWindow {
  const hour = now.getHours();
  if (hour >= WINDOW_START_HOUR && hour < WINDOW_END_HOUR) return { status: "instant" };
  const nextStart = new Date(now.getFullYear(), now.getMonth(), now.getDate(), WINDOW_START_HOUR, 0, 0, 0);
  if (hour >= WINDOW_END_HOUR) {
    nextStart.setDate(nextStart.getDate() + 1);
    return { status: "queued", nextStart, day: "tomorrow" };
  }
  return { status: "queued", nextStart, day: "today" };
}

export interface CallbackStatusText {
  title: string;
  text: string;
}

/** The confirmation sheet's words for a window. */
export function callbackStatusText(window: CallbackWindow): CallbackStatusText {
  if (window.status === "instant") {
    return {
      title: "We\u2019re calling you now",
      text: "A live agent is reaching out to the number you gave us. Expect our call any moment, so keep your phone nearby.",
    };
  }
  return {
    title: "Callback scheduled",
    text: `We only call between 8:00 AM and 8:00 PM your local time, as TCPA rules require, so your request is queued. Expect our call after 8:00 AM ${window.day}.`,
  };
}
