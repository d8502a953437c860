import { CampaignContact } from "../features/campaigns/CampaignContact";
import type { CampaignAppliedProps } from "../lib/types";
import { PageFrame } from "../sections/frame/PageFrame";

const BUTTON = "inline-flex items-center justify-center rounded-xl px-5 py-3 font-bold";

/** /campaigns/applied: where an application sent from the apply page lands (post/redirect/get). */
export function CampaignAppliedPage({ site }: CampaignAppliedProps) {
  return (
    <PageFrame site={site} mainClassName="mx-auto w-full max-w-3xl px-4 py-10">
      <p className="text-sm font-bold uppercase tracking-wide text-green-800">Campaign Application</p>
      <h1 className="mt-1 text-3xl font-bold tracking-tight text-slate-900">Application Submitted!</h1>
      <p className="mt-3 text-lg text-slate-700">
        Thank you for applying. Our affiliate team reviews every application within 24-48 hours and will reply to the e-mail address you
        gave us.
      </p>
      <p className="mt-2 text-slate-700">Partners earn $28-$175+ per qualified lead, paid weekly.</p>
      <p className="mt-6 flex flex-col gap-3 sm:flex-row">
        <a href="/campaigns" className={`${BUTTON} bg-blue-700 text-white hover:bg-blue-800`}>
          Back to the campaigns
        </a>
        <a href="/" className={`${BUTTON} border border-slate-400 text-slate-900 hover:bg-slate-100`}>
          Home page
        </a>
      </p>
      <CampaignContact site={site} />
    </PageFrame>
  );
}
