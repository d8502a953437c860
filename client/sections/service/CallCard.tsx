import { formatPhone } from "../../lib/phone";
import { CallButton } from "../../ui/CallButton";

interface Props {
  phone: string;
  service: string;
  urgentMessage: string;
}

/** Phone layout: 'Call Us Now' with the service's urgent message. */
export function CallCard({ phone, service, urgentMessage }: Props) {
  return (
    <section aria-labelledby="call-card-title" className="rounded-2xl bg-slate-900 p-5 text-white">
      <h2 id="call-card-title" className="text-xl font-bold">
        Call Us Now
      </h2>
      <p className="mt-1 text-slate-200">{urgentMessage}</p>
      <CallButton
        phone={phone}
        service={service}
        location="card"
        className="mt-4 flex items-center justify-center gap-2 rounded-xl bg-white px-4 py-3 text-lg font-bold text-slate-900"
        label={formatPhone(phone)}
      />
    </section>
  );
}
