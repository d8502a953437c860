import { formatPhone } from "../../lib/phone";
import type { SiteInfo } from "../../lib/types";
import { CallLink } from "../../ui/CallLink";

const LINK = "font-bold text-blue-800 underline underline-offset-2";

/** 'Questions about a campaign?': the affiliate team's e-mail and phone, under the portal and
 * the application's pages. */
export function CampaignContact({ site }: { site: SiteInfo }) {
  return (
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
  );
}
