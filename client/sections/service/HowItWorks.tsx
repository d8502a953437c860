export interface Step {
  title: string;
  text: string;
}

/** Phone layout: the numbered 'How It Works' steps. */
export function HowItWorks({ steps }: { steps: readonly Step[] }) {
  return (
    <section aria-labelledby="how-title">
      <h2 id="how-title" className="text-2xl font-bold text-slate-900">
        How It Works
      </h2>
      <ol className="mt-4 space-y-3">
        {steps.map((step, i) => (
          <li key={step.title} className="flex gap-4 rounded-xl bg-slate-50 p-4">
            <span
              className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-blue-700 font-bold text-white"
              aria-hidden="true"
            >
              {i + 1}
            </span>
            <span>
              <span className="block font-bold text-slate-900">{step.title}</span>
              <span className="block text-sm text-slate-700">{step.text}</span>
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
