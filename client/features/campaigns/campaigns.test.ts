import { describe, expect, it } from "vitest";
import type { Campaign } from "../../lib/types";
import { filterByStatus, filterCampaigns, isLive, isPayoutFilter, portalCampaign } from "./campaigns";

function campaign(name: string, payouts: string, status = "LIVE"): Campaign {
  return {
    campaign: name,
    payouts,
    status,
    notes: "",
    cap: "Uncapped",
    inbound: true,
    transfer: false,
    seconds: 120,
    hours: "HOVER TO SEE",
    geos: "Nationwide",
    paymentTerms: "Weekly Net 7",
  };
}

const list = [
  campaign("Roofing Inbound", "$45"),
  campaign("HVAC Transfers", "RTB"),
  campaign("Solar Leads", "$500 CPL"),
  campaign("Paused Plumbing", "$30", "PAUSED"),
];

describe("filterCampaigns", () => {
  it("shows only LIVE campaigns", () => {
    expect(filterCampaigns(list, "", "all").map((c) => c.campaign)).toEqual(["Roofing Inbound", "HVAC Transfers", "Solar Leads"]);
  });
  it("searches names case-insensitively, ignoring surrounding spaces", () => {
    expect(filterCampaigns(list, "  hvac ", "all").map((c) => c.campaign)).toEqual(["HVAC Transfers"]);
    expect(filterCampaigns(list, "ROOF", "all").map((c) => c.campaign)).toEqual(["Roofing Inbound"]);
  });
  it("'Fixed Payout' keeps payouts with a dollar sign", () => {
    expect(filterCampaigns(list, "", "fixed").map((c) => c.campaign)).toEqual(["Roofing Inbound", "Solar Leads"]);
  });
  it("'RTB Campaigns' keeps payouts containing RTB", () => {
    expect(filterCampaigns(list, "", "rtb").map((c) => c.campaign)).toEqual(["HVAC Transfers"]);
  });
  it("combines search and filter", () => {
    expect(filterCampaigns(list, "solar", "rtb")).toEqual([]);
  });
});

describe("isPayoutFilter", () => {
  it("accepts the three filters only", () => {
    expect(["all", "fixed", "rtb", "other"].map(isPayoutFilter)).toEqual([true, true, true, false]);
  });
});

describe("filterByStatus", () => {
  it("'All Status' keeps every campaign and 'Live Only' the LIVE ones", () => {
    expect(filterByStatus(list, "all")).toHaveLength(4);
    expect(filterByStatus(list, "live").map((c) => c.campaign)).toEqual(["Roofing Inbound", "HVAC Transfers", "Solar Leads"]);
    expect(list.filter(isLive)).toHaveLength(3);
  });
});

describe("portalCampaign", () => {
  it("keeps only what the portal's cards show", () => {
    expect(
      portalCampaign({ ...campaign("Roofing Inbound", "$45"), notes: "long qualification notes", promoAllowed: "Inbound only" }),
    ).toEqual({
      campaign: "Roofing Inbound",
      payouts: "$45",
      status: "LIVE",
      geos: "Nationwide",
      paymentTerms: "Weekly Net 7",
      promoAllowed: "Inbound only",
    });
    expect(portalCampaign(campaign("HVAC", "RTB"))).not.toHaveProperty("promoAllowed");
  });
});
