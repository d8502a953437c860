import { describe, expect, it } from "vitest";
import { callbackStatusText, callbackWindow } from "./callbackWindow";

const at = (h: number, m: number) => new Date(2025, 5, 14, h, m, 0);

describe("callbackWindow", () => {
  it("is instant from 08:00 up to before 20:00", () => {
    for (const [h, m] of [
      [8, 0],
      [12, 30],
      [19, 59],
    ]) {
      expect(callbackWindow(at(h, m)).status).toBe("instant");
    }
  });
  it("queues before 08:00 until 8:00 the same morning", () => {
    const w = callbackWindow(at(7, 59));
    expect(w).toEqual({ status: "queued", nextStart: new Date(2025, 5, 14, 8, 0, 0), day: "today" });
    expect(callbackWindow(at(0, 0))).toMatchObject({ day: "today" });
  });
  it("queues from 20:00 until 8:00 the next day", () => {
    expect(callbackWindow(at(20, 0))).toEqual({ status: "queued", nextStart: new Date(2025, 5, 15, 8, 0, 0), day: "tomorrow" });
    expect(callbackWindow(at(23, 59))).toMatchObject({ day: "tomorrow" });
  });
  it("rolls over month ends", () => {
    const w = callbackWindow(new Date(2025, 0, 31, 21, 0));
    expect(w.status === "queued" && w.nextStart.getMonth()).toBe(1);
  });
});

describe("callbackStatusText", () => {
  it("titles each status as the spec does", () => {
    expect(callbackStatusText({ status: "instant" }).title).toBe("We’re calling you now");
    const queued = callbackStatusText(callbackWindow(at(21, 0)));
    expect(queued.title).toBe("Callback scheduled");
    expect(queued.text).toContain("TCPA");
    expect(queued.text).toContain("8:00 AM tomorrow");
    expect(callbackStatusText(callbackWindow(at(6, 0))).text).toContain("8:00 AM today");
  });
});
