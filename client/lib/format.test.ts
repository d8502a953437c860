import { describe, expect, it } from "vitest";
import { formatNumber, formatPhone, formatPrice, telHref } from "./format";

describe("formatPhone", () => {
  it("formats ten digits as (xxx) xxx-xxxx", () => {
    expect(formatPhone("8005550100")).toBe("(800) 555-0100");
  });
  it("drops a leading country code", () => {
    expect(formatPhone("+18005550142")).toBe("(800) 555-0142");
    expect(formatPhone("1-800-555-0177")).toBe("(800) 555-0177");
  });
  it("leaves anything else as given", () => {
    expect(formatPhone(" 555-01 ")).toBe("555-01");
    expect(formatPhone("")).toBe("");
  });
});

describe("telHref", () => {
  it("gives E.164 for North American numbers", () => {
    expect(telHref("(800) 555-0100")).toBe("tel:+18005550100");
    expect(telHref("18005550100")).toBe("tel:+18005550100");
  });
  it("keeps digits and plus for others", () => {
    expect(telHref("+44 20 7946 0000")).toBe("tel:+442079460000");
  });
});

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
