import { describe, expect, it } from "vitest";
import { loginAlertText } from "./headerAlerts";

describe("loginAlertText", () => {
  it("gives the spec's homeowner alert with the formatted number", () => {
    expect(loginAlertText("homeowner", "8005550100")).toBe(
      "Homeowner dashboard coming soon! Please call (800) 555-0100 for immediate service.",
    );
  });
  it("gives the spec's contractor alert with the formatted number", () => {
    expect(loginAlertText("contractor", "8005550100")).toBe("Contractor login coming soon! Please call (800) 555-0100 for access.");
  });
});
