import RegistrationRequest from "../features/accounts/RegistrationRequest.island";
import { formatPhone } from "../lib/phone";
import type { RegisterProps } from "../lib/types";
import { PageFrame } from "../sections/frame/PageFrame";
import { CallLink } from "../ui/CallLink";

const STEPS = [
  { title: "Tell us who you are", text: "Pick your account type and fill in one short form." },
  { title: "We set up your account", text: "Our team reviews your details and creates your account." },
  { title: "Log in within 24 hours", text: "Your login credentials arrive by e-mail within 24 hours." },
];

/** /register and /register/{type}: the registration request form (the spec's second
 * version). Server HTML that works without JavaScript: the type choice is links, the form
 * posts to /api/account-requests, which answers with this page and the error in place, or
 * with the thank-you page. */
export function RegisterPage({ site, accountType, values, error }: RegisterProps) {
  return (
    <PageFrame site={site} mainClassName="mx-auto grid w-full max-w-6xl gap-10 px-4 py-10 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <div className="min-w-0">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 md:text-4xl">Request an Account</h1>
        <p className="mt-3 text-lg text-slate-700">
          Accounts at {site.brand} are set up by our team. Tell us who you are and we'll create your account and send your login credentials
          within 24 hours.
        </p>
        <RegistrationRequest accountType={accountType} infoEmail={site.infoEmail} values={values.text} error={error} />
      </div>
      <aside className="h-fit rounded-2xl bg-blue-50 p-6" aria-labelledby="register-next">
        <h2 id="register-next" className="text-lg font-bold text-slate-900">
          What happens next
        </h2>
        <ol className="mt-4 grid gap-4">
          {STEPS.map((step, i) => (
            <li key={step.title} className="flex gap-3">
              <span className="flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-blue-700 text-sm font-bold text-white">
                {i + 1}
              </span>
              <span>
                <span className="block font-bold text-slate-900">{step.title}</span>
                <span className="block text-sm text-slate-700">{step.text}</span>
              </span>
            </li>
          ))}
        </ol>
        <p className="mt-6 text-sm text-slate-700">
          Rather talk to someone?{" "}
          <CallLink phone={site.supportPhone} service="site" location="register" className="font-bold text-blue-800 underline">
            Call {formatPhone(site.supportPhone)}
          </CallLink>
        </p>
      </aside>
    </PageFrame>
  );
}
