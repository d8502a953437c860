import { SpriteIcon } from "../../ui/SpriteIcon";

export interface LeadCallCardProps {
  label: string;
  answered: string;
  fields: { term: string; detail: string }[];
  urgency: string;
  deliveries: { icon: string; text: string }[];
}

/** A sample lead as a contractor receives it: the call summary, its urgency and what was
 * delivered (recording, transcript, SMS, e-mail). */
export function LeadCallCard({ label, answered, fields, urgency, deliveries }: LeadCallCardProps) {
  return (
    <figure className="rounded-2xl border border-slate-200 bg-white p-5 shadow-lg">
      <figcaption className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 pb-3">
        <span className="flex items-center gap-2 font-bold text-slate-900">
          <SpriteIcon name="phone" className="h-5 w-5 text-blue-700" />
          {label}
        </span>
        <span className="text-sm text-slate-600">{answered}</span>
      </figcaption>
      <p className="mt-4 inline-block rounded-full bg-red-50 px-3 py-1 text-sm font-bold text-red-800">{urgency}</p>
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        {fields.map((field) => (
          <div key={field.term} className="contents">
            <dt className="font-bold text-slate-600">{field.term}</dt>
            <dd className="text-slate-900">{field.detail}</dd>
          </div>
        ))}
      </dl>
      <ul className="mt-5 grid grid-cols-2 gap-2 border-t border-slate-200 pt-3 text-sm text-slate-700">
        {deliveries.map((d) => (
          <li key={d.text} className="flex items-center gap-2">
            <SpriteIcon name={d.icon} className="h-4 w-4 text-green-700" />
            {d.text}
          </li>
        ))}
      </ul>
    </figure>
  );
}
