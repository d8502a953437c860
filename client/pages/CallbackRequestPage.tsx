import Callback from "../features/callback/Callback.island";
import { formatPhone } from "../lib/phone";
import type { CallbackRequestProps } from "../lib/types";
import { PageFrame } from "../sections/frame/PageFrame";
import { CallLink } from "../ui/CallLink";

const LINK = "font-bold text-blue-800 underline";

/** The callback form again, for a post made without JavaScript that broke a rule: the same
 * form as the service pages' (the Callback island), with what the visitor typed and the
 * message above it. A post that named no service we have gets the message and the way home. */
export function CallbackRequestPage({ site, service, phone, consentText, values, error }: CallbackRequestProps) {
  return (
    <PageFrame site={site} phone={phone} service={service?.slug ?? "site"} mainClassName="mx-auto w-full max-w-xl px-4 py-10">
      <section id="callback" aria-labelledby="callback-title">
        <h1 id="callback-title" className="mb-6 text-3xl font-bold text-slate-900">
          Prefer a Callback?
        </h1>
        {service ? (
          <>
            <Callback
              serviceSlug={service.slug}
              phone={phone}
              consentText={consentText}
              certification={false}
              values={values.text}
              refusal={error.message}
            />
            <p className="mt-6 text-slate-700">
              Or call us now:{" "}
              <CallLink phone={phone} service={service.slug} location="callback-form" className={LINK}>
                {formatPhone(phone)}
              </CallLink>
            </p>
          </>
        ) : (
          <>
            <p role="alert" className="rounded-lg border-l-4 border-red-700 bg-red-50 p-4 font-bold text-red-800">
              {error.message}
            </p>
            <p className="mt-6">
              <a href="/" className={LINK}>
                Return Home
              </a>
            </p>
          </>
        )}
      </section>
    </PageFrame>
  );
}
