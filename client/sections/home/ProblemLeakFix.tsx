import { SpriteIcon } from "../../ui/SpriteIcon";

interface Props {
  /** The icon sprite file. */
  sprite: string;
  title: string;
  steps: { label: string; icon: string; title: string; text: string }[];
}

const TONES = ["bg-red-50 text-red-800", "bg-amber-100 text-amber-900", "bg-green-100 text-green-800"];

/** Section 2: the problem, the leak and the fix, in that order. */
export function ProblemLeakFix({ sprite, title, steps }: Props) {
  return (
    <section className="mx-auto max-w-6xl px-4 py-14 md:px-6" aria-labelledby="problem-title">
      <h2 id="problem-title" className="max-w-3xl text-3xl font-bold tracking-tight text-slate-900">
        {title}
      </h2>
      <ol className="mt-8 grid gap-6 md:grid-cols-3">
        {steps.map((step, i) => (
          <li key={step.label} className="rounded-2xl border border-slate-200 p-6">
            <p className={`inline-flex items-center gap-2 rounded-full px-3 py-1 text-sm font-bold ${TONES[i % TONES.length]}`}>
              <SpriteIcon sprite={sprite} name={step.icon} className="h-4 w-4" />
              {step.label}
            </p>
            <h3 className="mt-4 text-xl font-bold text-slate-900">{step.title}</h3>
            <p className="mt-2 text-slate-700">{step.text}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}
