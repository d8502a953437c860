import { REGISTER_PATH, TYPE_LABEL } from "../features/accounts/accounts";
import { formatPhone } from "../lib/phone";
import type { RegisterThanksProps } from "../lib/types";
import { PageFrame } from "../sections/frame/PageFrame";
import { CallLink } from "../ui/CallLink";

const LINK = "font-bold text-blue-800 underline";

/** /register/thanks?type=…: where a registration request lands once stored, with or without
 * JavaScript (docs/product.md, "Accounts"). */
export function RegisterThanksPage({ site, accountType }: RegisterThanksProps) {
  const label = accountType ? TYPE_LABEL[accountType] : "account";
  return (
    <PageFrame site={site} mainClassName="mx-auto flex w-full max-w-xl flex-1 flex-col justify-center gap-5 px-4 py-10">
      <p className="text-sm font-bold uppercase tracking-wide text-green-800">{`Your ${label} registration`}</p>
      <h1 className="text-3xl font-bold text-slate-900">Registration Submitted!</h1>
      <p className="text-lg text-slate-800">Your account request has been sent to our team.</p>
      <p className="text-slate-700">We'll create your account and send login credentials within 24 hours.</p>
      <p className="text-slate-700">
        Questions in the meantime? Call us or write to{" "}
        <a className={LINK} href={`mailto:${site.infoEmail}`}>
          {site.infoEmail}
        </a>
        .
      </p>
      <CallLink
        phone={site.supportPhone}
        service="site"
        location="registration-confirmation"
        className="inline-flex w-full items-center justify-center rounded-xl bg-blue-700 px-6 py-4 text-xl font-bold text-white hover:bg-blue-800 sm:w-auto"
      >
        {`Call ${formatPhone(site.supportPhone)}`}
      </CallLink>
      <p className="flex flex-wrap gap-x-6 gap-y-2">
        <a href="/" className={LINK}>
          Back to the home page
        </a>
        <a href={REGISTER_PATH} className={LINK}>
          Register another account
        </a>
      </p>
    </PageFrame>
  );
}
