import { Icon } from "../../ui/Icon";
import { CHECK_ICON } from "../../ui/icons";

interface Props {
  title: string;
  description: string;
  urgentMessage: string;
  scenarios: readonly string[];
}

/** Desktop: the problem, the urgent message and the urgent scenarios. */
export function ProblemSection({ title, description, urgentMessage, scenarios }: Props) {
  return (
    <section aria-labelledby="problem-title" className="mx-auto hidden max-w-6xl px-6 py-12 md:block">
      <h2 id="problem-title" className="text-3xl font-bold text-slate-900">
        {title}
      </h2>
      <p className="mt-3 max-w-3xl text-slate-700">{description}</p>
      <p className="mt-5 rounded-lg border-l-4 border-red-700 bg-red-50 p-4 font-bold text-red-900">{urgentMessage}</p>
      <ul className="mt-6 grid grid-cols-2 gap-3">
        {scenarios.map((scenario) => (
          <li key={scenario} className="flex items-start gap-3 rounded-lg border border-slate-200 p-4 text-slate-800">
            <Icon node={CHECK_ICON} className="mt-0.5 h-5 w-5 shrink-0 text-red-700" />
            {scenario}
          </li>
        ))}
      </ul>
    </section>
  );
}
