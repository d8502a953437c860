import { SiteFooter } from "../components/SiteFooter";
import { SiteHeader } from "../components/SiteHeader";
import CampaignBrowser from "../islands/CampaignBrowser";
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

        <CampaignBrowser campaigns={campaigns} />
      </main>
      <SiteFooter variant="site" site={site} services={services} />
    </>
  );
}
