import { describe, expect, it } from "vitest";
import { matchServices } from "./serviceSearch";

const services = [
  { name: "HVAC", slug: "hvac", icon: "air-vent" },
  { name: "Water Damage Restoration", slug: "water-damage", icon: "droplets" },
  { name: "Gutter Protection", slug: "gutter-protection", icon: "shield" },
  { name: "Gutters", slug: "gutters", icon: "cloud-rain" },
];

describe("matchServices", () => {
  it("matches everything for an empty or blank query", () => {
    expect(matchServices(services, "")).toHaveLength(4);
    expect(matchServices(services, "   ")).toHaveLength(4);
  });
  it("matches names in any case, keeping catalogue order", () => {
    expect(matchServices(services, "GUTTER").map((s) => s.slug)).toEqual(["gutter-protection", "gutters"]);
    expect(matchServices(services, "hvac").map((s) => s.slug)).toEqual(["hvac"]);
  });
  it("needs every word", () => {
    expect(matchServices(services, "water damage").map((s) => s.slug)).toEqual(["water-damage"]);
    expect(matchServices(services, "water roof")).toEqual([]);
  });
});
