import { describe, expect, it } from "vitest";
import { formatNumber, formatPrice } from "./format";

describe("formatNumber", () => {
  it.each([
    [0, "0"],
    [999, "999"],
    [1000, "1,000"],
    [5000, "5,000"],
    [1234567, "1,234,567"],
    [-1234567.5, "-1,234,567.5"],
    [4.9, "4.9"],
  ])("%s → %s", (n, s) => {
    expect(formatNumber(n)).toBe(s);
  });
  it("agrees with Intl in en-US for integers", () => {
    for (const n of [1, 12, 123, 1234, 12345, 123456, 1234567, 98765432]) {
      expect(formatNumber(n)).toBe(new Intl.NumberFormat("en-US").format(n));
    }
  });
});

describe("formatPrice", () => {
  it.each([
    [28, "$28"],
    [175, "$175"],
    [1500, "$1,500"],
    [28.5, "$28.50"],
    [0.07, "$0.07"],
    [-5, "-$5"],
  ])("%s → %s", (n, s) => {
    expect(formatPrice(n)).toBe(s);
  });
  it("gives empty text for non-numbers", () => {
    expect(formatPrice(Number.NaN)).toBe("");
  });
});
