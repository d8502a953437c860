import type { Feature, IconNode } from "../../lib/types";
import { Icon } from "../../ui/Icon";

interface Props {
  title: string;
  description: string;
  features: readonly Feature[];
  icons: Record<string, IconNode>;
}

/** Desktop: the solution and its features grid. */
export function SolutionSection({ title, description, features, icons }: Props) {
  return (
    <section aria-labelledby="solution-title" className="hidden bg-slate-50 md:block">
      <div className="mx-auto max-w-6xl px-6 py-12">
        <h2 id="solution-title" className="text-3xl font-bold text-slate-900">
          {title}
        </h2>
        <p className="mt-3 max-w-3xl text-slate-700">{description}</p>
        <ul className="mt-8 grid grid-cols-3 gap-6">
          {features.map((feature) => (
            <li key={feature.title} className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
              <Icon node={icons[feature.icon]} className="h-8 w-8 text-blue-700" />
              <h3 className="mt-3 font-bold text-slate-900">{feature.title}</h3>
              <p className="mt-2 text-sm text-slate-700">{feature.description}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
