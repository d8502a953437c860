import { ApplicationError, ApplicationFields, RequiredNote } from "../features/campaigns/ApplicationFields";
import { CampaignContact } from "../features/campaigns/CampaignContact";
import { APPLICATIONS_URL, type ApplicationValues } from "../features/campaigns/campaignApplication";
import { keptList, keptText } from "../lib/formValues";
import type { CampaignApplyProps, FormValues } from "../lib/types";
import { PageFrame } from "../sections/frame/PageFrame";
import { Honeypot } from "../ui/Honeypot";

const BUTTON = "inline-flex items-center justify-center rounded-xl px-5 py-3 font-bold";

/** The application as the form starts: what the address chose, or what a refused post sent. */
function startingValues(kept: FormValues): ApplicationValues {
  return {
    firstName: keptText(kept, "firstName"),
    lastName: keptText(kept, "lastName"),
    email: keptText(kept, "email"),
    phone: keptText(kept, "phone"),
    company: keptText(kept, "company"),
    website: keptText(kept, "website"),
    experience: keptText(kept, "experience"),
    monthlyVolume: keptText(kept, "monthlyVolume"),
    selectedCampaigns: keptList(kept, "selectedCampaigns"),
    additionalInfo: keptText(kept, "additionalInfo"),
  };
}

/** /campaigns/apply?campaign=…: the campaign application as a page of its own, the target of
 * the portal's 'Apply Now' links before the page is live (and without JavaScript). The same
 * fields as the modal, posted as a plain form: the server answers with /campaigns/applied,
 * or with this page again, the values kept and the error shown. No island. */
export function CampaignApplyPage({ site, campaigns, values, error, closed }: CampaignApplyProps) {
  const start = startingValues(values);
  const chosen = campaigns.filter((c) => start.selectedCampaigns.includes(c));
  return (
    <PageFrame site={site} mainClassName="mx-auto w-full max-w-3xl px-4 py-10">
      <p className="text-sm font-bold uppercase tracking-wide text-blue-800">Campaign Application Portal</p>
      <h1 className="mt-1 text-3xl font-bold tracking-tight text-slate-900">Campaign Application</h1>
      <p className="mt-2 text-lg text-slate-700">
        No account required. Tell us about your traffic and we'll review your application within 24-48 hours.
      </p>
      {closed ? (
        <p role="status" className="mt-6 rounded-lg border-l-4 border-amber-600 bg-amber-50 p-4 text-slate-900">
          <strong>{closed}</strong> is no longer accepting applications. Choose another live campaign below, or see all of them on the{" "}
          <a href="/campaigns" className="font-bold text-blue-800 underline">
            campaigns page
          </a>
          .
        </p>
      ) : null}
      {error ? (
        <div className="mt-6">
          <ApplicationError message={error.message} />
        </div>
      ) : null}
      {chosen.length > 0 ? (
        <p className="mt-6 rounded-lg bg-blue-50 p-4 text-blue-800">
          Applying for: <strong>{chosen.join(", ")}</strong>
        </p>
      ) : null}
      <form method="post" action={APPLICATIONS_URL} className="mt-6 flex flex-col gap-5">
        <Honeypot />
        <RequiredNote />
        <ApplicationFields idPrefix="apply" campaigns={campaigns} values={start} />
        <div className="flex flex-col gap-3 sm:flex-row sm:justify-end">
          <a href="/campaigns" className={`${BUTTON} border border-slate-400 text-slate-900 hover:bg-slate-100`}>
            Cancel
          </a>
          <button type="submit" className={`${BUTTON} bg-blue-700 text-white hover:bg-blue-800`}>
            Submit Application
          </button>
        </div>
      </form>
      <CampaignContact site={site} />
    </PageFrame>
  );
}
