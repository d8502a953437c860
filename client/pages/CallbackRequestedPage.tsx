import { SUCCESS_MESSAGE } from "../features/callback/callback";
import { formatPhone } from "../lib/phone";
import type { CallbackRequestedProps } from "../lib/types";
import { PageFrame } from "../sections/frame/PageFrame";
import { CallLink } from "../ui/CallLink";

/** /callback-requested?service=…: where a callback request sent without JavaScript lands
 * (post/redirect/get), with the service's number and a way back to its page. */
export function CallbackRequestedPage({ site, service, phone }: CallbackRequestedProps) {
  const slug = service?.slug ?? "site";
  return (
    <PageFrame
      site={site}
      phone={phone}
      service={slug}
      mainClassName="mx-auto flex w-full max-w-xl flex-1 flex-col justify-center gap-5 px-4 py-10"
    >
      <p className="text-sm font-bold uppercase tracking-wide text-green-800">Callback status</p>
      <h1 className="text-3xl font-bold text-slate-900">{SUCCESS_MESSAGE}</h1>
      <p className="text-slate-700">
        Our team calls between 8:00 AM and 8:00 PM your local time. If you asked outside those hours, your request is queued and we will
        call you after 8:00 AM.
      </p>
      <p className="text-slate-700">Need help right now? Call us:</p>
      <CallLink
        phone={phone}
        service={slug}
        location="callback-confirmation"
        className="inline-flex w-full items-center justify-center rounded-xl bg-red-700 px-6 py-4 text-xl font-bold text-white hover:bg-red-800 sm:w-auto"
      >
        {`Call ${formatPhone(phone)}`}
      </CallLink>
      <a href={service ? `/${service.slug}` : "/"} className="font-bold text-blue-800 underline">
        {`Back to ${service ? service.name : "the home page"}`}
      </a>
    </PageFrame>
  );
}
