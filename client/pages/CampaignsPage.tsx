import CampaignBrowser from "../features/campaigns/CampaignBrowser.island";
import { portalCampaign } from "../features/campaigns/campaigns";
import { SiteFooter } from "../features/footer/SiteFooter";
import { SiteHeader } from "../features/header/SiteHeader";
import { formatPhone } from "../lib/phone";
import type { CampaignsProps } from "../lib/types";
import { CallLink } from "../ui/CallLink";

const BENEFITS = [
  { title: "Competitive payouts", text: "$28-$175+ per qualified lead with weekly payments" },
  { title: "Fast approval", text: "Applications are reviewed within 24-48 hours." },
  { title: "Dedicated support", text: "A personal account manager and 24/7 support." },
];

const LINK = "font-bold text-blue-800 underline underline-offset-2";

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

        <section aria-labelledby="campaign-contact" className="mt-10 rounded-2xl bg-slate-50 p-6 text-center">
          <h2 id="campaign-contact" className="text-lg font-bold text-slate-900">
            Questions about a campaign?
          </h2>
          <p className="mt-1 text-slate-700">Our affiliate team answers about payouts, caps, hours and traffic rules, 24/7.</p>
          <p className="mt-3 flex flex-col items-center justify-center gap-2 sm:flex-row sm:gap-6">
            <a href={`mailto:${site.infoEmail}`} className={LINK}>
              {site.infoEmail}
            </a>
            <CallLink phone={site.supportPhone} service="site" location="campaigns-contact" className={LINK}>
              {formatPhone(site.supportPhone)}
            </CallLink>
          </p>
        </section>
      </main>
      <SiteFooter variant="site" site={site} services={services} />
    </>
  );
}
