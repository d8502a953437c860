import CampaignBrowser from "../features/campaigns/CampaignBrowser.island";
import { CampaignContact } from "../features/campaigns/CampaignContact";
import { portalCampaign } from "../features/campaigns/campaigns";
import { SiteFooter } from "../features/footer/SiteFooter";
import { SiteHeader } from "../features/header/SiteHeader";
import type { CampaignsProps } from "../lib/types";

const BENEFITS = [
  { title: "Competitive payouts", text: "$28-$175+ per qualified lead with weekly payments" },
  { title: "Fast approval", text: "Applications are reviewed within 24-48 hours." },
  { title: "Dedicated support", text: "A personal account manager and 24/7 support." },
];

/** Affiliate campaign application portal (/campaigns). */
export function CampaignsPage({ site, campaigns, services }: CampaignsProps) {
  return (
    <>
      <SiteHeader variant="plain" brand={site.brand} phone={site.supportPhone} />
      <main id="main" className="mx-auto max-w-6xl px-4 py-10">
        <p className="text-sm font-bold uppercase tracking-wide text-blue-800">Campaign Application Portal</p>
        <h1 className="mt-1 text-3xl font-bold tracking-tight text-slate-900 md:text-4xl">No account required</h1>
        <p className="mt-2 max-w-3xl text-lg text-slate-700">
          Browse our live pay-per-call campaigns and apply to the ones that fit your traffic. Pick as many as you like in one application.
        </p>
        <ul className="mt-6 grid gap-4 md:grid-cols-3">
          {BENEFITS.map((b) => (
            <li key={b.title} className="rounded-xl border border-slate-200 p-5">
              <h2 className="font-bold text-slate-900">{b.title}</h2>
              <p className="mt-1 text-sm text-slate-700">{b.text}</p>
            </li>
          ))}
        </ul>

        <CampaignBrowser campaigns={campaigns.map(portalCampaign)} email={site.infoEmail} />

        <CampaignContact site={site} />
      </main>
      <SiteFooter variant="site" site={site} services={services} />
    </>
  );
}
