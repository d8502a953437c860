import { useState } from "react";
import { CallLink } from "../components/CallLink";
import { Logo } from "../components/Logo";
import { SiteFooter } from "../components/SiteFooter";
import { filterCampaigns, isPayoutFilter, PAYOUT_FILTERS, type PayoutFilter } from "../lib/campaigns";
import { formatPhone } from "../lib/format";
import type { CampaignsProps } from "../lib/types";

const BENEFITS = [
  { title: "Competitive payouts", text: "$28-$175+ per qualified lead with weekly payments" },
  { title: "Fast approval", text: "Applications are reviewed within 24-48 hours." },
  { title: "Dedicated support", text: "A personal account manager and 24/7 support." },
];

/** Affiliate campaign application portal (/campaigns). */
export function CampaignsPage({ site, campaigns }: CampaignsProps) {
  const [search, setSearch] = useState("");
  const [filter, setFilter] = useState<PayoutFilter>("all");
  const shown = filterCampaigns(campaigns, search, filter);
  return (
    <>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl items-center justify-between gap-3 px-4 py-3">
          <Logo brand={site.brand} />
          <CallLink phone={site.supportPhone} service="site" location="header" className="font-semibold text-blue-800">
            {formatPhone(site.supportPhone)}
          </CallLink>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-6xl px-4 py-10">
        <h1 className="text-3xl font-extrabold tracking-tight text-slate-900 md:text-4xl">Campaign Application Portal</h1>
        <p className="mt-2 text-lg font-semibold text-blue-800">No account required</p>
        <ul className="mt-6 grid gap-4 md:grid-cols-3">
          {BENEFITS.map((b) => (
            <li key={b.title} className="rounded-xl border border-slate-200 p-5">
              <h2 className="font-bold text-slate-900">{b.title}</h2>
              <p className="mt-1 text-sm text-slate-700">{b.text}</p>
            </li>
          ))}
        </ul>

        <div className="mt-8 flex flex-col gap-3 sm:flex-row">
          <label className="flex-1">
            <span className="sr-only">Search campaigns</span>
            <input
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
              <li key={c.campaign} className="rounded-xl border border-slate-200 p-5 shadow-sm">
                <div className="flex items-start justify-between gap-3">
                  <h3 className="font-bold text-slate-900">{c.campaign}</h3>
                  <span className="rounded-full bg-green-100 px-2 py-0.5 text-xs font-bold text-green-900">{c.status}</span>
                </div>
                <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
                  <dt className="text-slate-600">Payout</dt>
                  <dd className="font-semibold text-slate-900">{c.payouts}</dd>
                  <dt className="text-slate-600">Payment terms</dt>
                  <dd className="text-slate-900">{c.paymentTerms}</dd>
                  <dt className="text-slate-600">GEO</dt>
                  <dd className="text-slate-900">{c.geos}</dd>
                </dl>
                {c.promoAllowed ? <p className="mt-3 text-sm text-slate-700">Promo: {c.promoAllowed}</p> : null}
              </li>
            ))}
          </ul>
        )}
      </main>
      <SiteFooter site={site} phone={site.supportPhone} service="site" />
    </>
  );
}
