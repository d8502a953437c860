import { formatPhone } from "../../lib/phone";
import { CallButton } from "../../ui/CallButton";

interface Props {
  serviceName: string;
  serviceSlug: string;
  phone: string;
}

/** Desktop: the final call to action. */
export function ClosingCallToAction({ serviceName, serviceSlug, phone }: Props) {
  return (
    <section aria-labelledby="cta-title" className="mx-auto hidden max-w-6xl px-6 py-14 text-center md:block">
      <h2 id="cta-title" className="text-3xl font-bold text-slate-900">
        Talk to a local {serviceName} pro today
      </h2>
      <p className="mt-2 text-slate-700">One call connects you with a licensed local contractor. Calling us is free.</p>
      <CallButton
        phone={phone}
        service={serviceSlug}
        location="final-cta"
        className="mt-6 inline-flex items-center justify-center gap-3 rounded-xl bg-red-700 px-8 py-4 text-xl font-bold text-white shadow-lg hover:bg-red-800"
        label={`Call ${formatPhone(phone)}`}
      />
    </section>
  );
}
