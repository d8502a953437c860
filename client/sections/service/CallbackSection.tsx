import Callback from "../../features/callback/Callback.island";
import type { SampleProject } from "../../lib/types";
import { Icon } from "../../ui/Icon";
import { CHECK_ICON } from "../../ui/icons";

interface Props {
  serviceSlug: string;
  phone: string;
  consentText: string;
  /** True when the TrustedForm script runs on this page. */
  certification: boolean;
  /** What a callback brings, shown beside the form on desktop. */
  points: readonly string[];
  sampleProject: SampleProject;
}

/** 'Prefer a Callback?': the pitch beside the callback form (an island). */
export function CallbackSection({ serviceSlug, phone, consentText, certification, points, sampleProject }: Props) {
  return (
    <section id="callback" aria-labelledby="callback-title" className="mx-auto mt-8 max-w-6xl scroll-mt-16 px-4 md:mt-0 md:px-6 md:py-12">
      <div className="grid gap-8 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm md:grid-cols-2 md:p-10">
        <div>
          <h2 id="callback-title" className="text-2xl font-bold text-slate-900 md:text-3xl">
            Prefer a Callback?
          </h2>
          <p className="mt-2 text-slate-700">Leave your name and number and a live agent will call you back to find the right local pro.</p>
          <ul className="mt-6 hidden space-y-3 text-slate-800 md:block">
            {points.map((point) => (
              <li key={point} className="flex items-start gap-3">
                <Icon node={CHECK_ICON} className="mt-0.5 h-5 w-5 shrink-0 text-green-700" />
                {point}
              </li>
            ))}
          </ul>
          <p className="mt-6 hidden rounded-lg bg-slate-50 p-4 text-sm text-slate-700 md:block">
            <span className="font-bold text-slate-900">A recent request:</span> {sampleProject.issue} ({sampleProject.location},{" "}
            {sampleProject.urgency.toLowerCase()})
          </p>
        </div>
        <Callback serviceSlug={serviceSlug} phone={phone} consentText={consentText} certification={certification} />
      </div>
    </section>
  );
}
