import type { Campaign } from "./types";

export type PayoutFilter = "all" | "fixed" | "rtb";

export const PAYOUT_FILTERS: ReadonlyArray<{ value: PayoutFilter; label: string }> = [
  { value: "all", label: "All Campaigns" },
  { value: "fixed", label: "Fixed Payout" },
  { value: "rtb", label: "RTB Campaigns" },
];

/** Campaigns shown in the portal: LIVE only, name matching the search case-insensitively,
 * and the payout filter ('Fixed Payout': payouts text contains $; 'RTB': contains RTB). */
export function filterCampaigns(campaigns: readonly Campaign[], search: string, filter: PayoutFilter): Campaign[] {
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
