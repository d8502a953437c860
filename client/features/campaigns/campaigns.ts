import type { Campaign } from "../../lib/types";

export type PayoutFilter = "all" | "fixed" | "rtb";

export const PAYOUT_FILTERS: ReadonlyArray<{ value: PayoutFilter; label: string }> = [
  { value: "all", label: "All Campaigns" },
  { value: "fixed", label: "Fixed Payout" },
  { value: "rtb", label: "RTB Campaigns" },
];

/** What the portal's cards show of a campaign (its island carries no more). */
export type PortalCampaign = Pick<Campaign, "campaign" | "payouts" | "status" | "geos" | "paymentTerms" | "promoAllowed">;

export function portalCampaign({ campaign, payouts, status, geos, paymentTerms, promoAllowed }: Campaign): PortalCampaign {
  return promoAllowed === undefined
    ? { campaign, payouts, status, geos, paymentTerms }
    : { campaign, payouts, status, geos, paymentTerms, promoAllowed };
}

/** Campaigns shown in the portal: LIVE only, name matching the search case-insensitively,
 * and the payout filter ('Fixed Payout': payouts text contains $; 'RTB': contains RTB). */
export function filterCampaigns<C extends Pick<Campaign, "campaign" | "payouts" | "status">>(
  campaigns: readonly C[],
  search: string,
  filter: PayoutFilter,
): C[] {
  const needle = search.trim().toLowerCase();
  return campaigns.filter((c) => {
    if (c.status !== "LIVE") return false;
    if (needle && !c.campaign.toLowerCase().includes(needle)) return false;
    if (filter === "fixed") return c.payouts.includes("$");
    if (filter === "rtb") return c.payouts.includes("RTB");
    return true;
  });
}

export function isPayoutFilter(value: string): value is PayoutFilter {
  return PAYOUT_FILTERS.some((f) => f.value === value);
}

/** The Available Campaigns modal's status select (docs/product.md, "The affiliate dashboard (home page header)"). */
export type StatusFilter = "all" | "live";

export const STATUS_FILTERS: ReadonlyArray<{ value: StatusFilter; label: string }> = [
  { value: "all", label: "All Status" },
  { value: "live", label: "Live Only" },
];

export const isLive = (c: Pick<Campaign, "status">): boolean => c.status === "LIVE";

/** 'All Status' keeps every campaign; 'Live Only' the LIVE ones. */
export function filterByStatus(campaigns: readonly Campaign[], status: StatusFilter): Campaign[] {
  return status === "live" ? campaigns.filter(isLive) : [...campaigns];
}
