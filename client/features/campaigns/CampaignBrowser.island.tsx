import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { defineIsland } from "../../islands/island";
import { applyHref } from "./campaignApplication";
import { filterCampaigns, isLive, isPayoutFilter, PAYOUT_FILTERS, type PayoutFilter, type PortalCampaign } from "./campaigns";

// The application modal loads when a visitor first applies.
const ApplicationDialog = lazy(() => import("./ApplicationDialog").then((m) => ({ default: m.ApplicationDialog })));

interface Props {
  /** What the cards show of each campaign (not its notes, caps or hours). */
  campaigns: PortalCampaign[];
  /** The info address the application's mail draft goes to. */
  email: string;
}

/** The portal's search box, payout filter and the campaign cards they narrow down, each
 * with 'Apply Now': a link to the apply page until the island is live, then the
 * application modal with that campaign chosen. */
function CampaignBrowser({ campaigns, email }: Props) {
  const [search, setSearch] = useState("");
  const [filter, setFilter] = useState<PayoutFilter>("all");
  const [applyFor, setApplyFor] = useState<string | null>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const filterRef = useRef<HTMLSelectElement>(null);
  const applyLink = useRef<HTMLElement | null>(null);
  const shown = filterCampaigns(campaigns, search, filter);

  // What the visitor typed or chose before this island was live stays in the fields: take it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, right after hydration
  useEffect(() => {
    const typed = searchRef.current?.value ?? "";
    const chosen = filterRef.current?.value ?? "all";
    if (typed !== search) setSearch(typed);
    if (chosen !== filter && isPayoutFilter(chosen)) setFilter(chosen);
    // Once, right after hydration.
  }, []);

  return (
    <>
      <div className="mt-8 flex flex-col gap-3 sm:flex-row">
        <label className="flex-1">
          <span className="sr-only">Search campaigns</span>
          <input
            ref={searchRef}
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="Search campaigns..."
            className="w-full rounded-lg border border-slate-400 px-4 py-3"
          />
        </label>
        <label>
          <span className="sr-only">Filter campaigns</span>
          <select
            ref={filterRef}
            value={filter}
            onChange={(e) => {
              if (isPayoutFilter(e.target.value)) setFilter(e.target.value);
            }}
            className="w-full rounded-lg border border-slate-400 bg-white px-4 py-3 sm:w-auto"
          >
            {PAYOUT_FILTERS.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
        </label>
      </div>

      <h2 className="mt-8 text-xl font-bold text-slate-900" aria-live="polite">
        Available Campaigns ({shown.length})
      </h2>
      <p className="text-sm text-slate-600">All campaigns are live and accepting applications</p>

      {shown.length === 0 ? (
        <div className="mt-6 rounded-xl border border-dashed border-slate-300 p-10 text-center">
          <p className="font-bold text-slate-900">No campaigns found</p>
          <p className="text-slate-600">Try adjusting your search or filter criteria</p>
        </div>
      ) : (
        <ul className="mt-6 grid gap-4 md:grid-cols-2">
          {shown.map((c) => (
            <li key={c.campaign} className="campaign-card flex flex-col rounded-xl border border-slate-200 p-5 shadow-sm">
              <div className="flex items-start justify-between gap-3">
                <h3 className="font-bold text-slate-900">{c.campaign}</h3>
                <span className="rounded-full bg-green-100 px-2 py-0.5 text-xs font-bold text-green-900">{c.status}</span>
              </div>
              <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
                <dt className="text-slate-600">Payout</dt>
                <dd className="font-bold text-slate-900">{c.payouts}</dd>
                <dt className="text-slate-600">Payment terms</dt>
                <dd className="text-slate-900">{c.paymentTerms}</dd>
                <dt className="text-slate-600">GEO</dt>
                <dd className="text-slate-900">{c.geos}</dd>
              </dl>
              {c.promoAllowed ? <p className="mt-3 text-sm text-slate-700">Promo: {c.promoAllowed}</p> : null}
              <div className="mt-auto">
                <a
                  href={applyHref(c.campaign)}
                  aria-label={`Apply Now: ${c.campaign}`}
                  onClick={(e) => {
                    e.preventDefault();
                    applyLink.current = e.currentTarget;
                    setApplyFor(c.campaign);
                  }}
                  className="mt-4 block rounded-xl bg-blue-700 px-4 py-2.5 text-center font-bold text-white hover:bg-blue-800"
                >
                  Apply Now
                </a>
              </div>
            </li>
          ))}
        </ul>
      )}
      {applyFor !== null ? (
        <Suspense fallback={null}>
          <ApplicationDialog
            campaigns={campaigns.filter(isLive).map((c) => c.campaign)}
            preselected={applyFor}
            email={email}
            onClose={() => setApplyFor(null)}
            returnFocusTo={applyLink.current}
          />
        </Suspense>
      ) : null}
    </>
  );
}

export default defineIsland("CampaignBrowser", CampaignBrowser);
