import type { Step } from "../service/HowItWorks";

interface Props {
  title: string;
  steps: readonly Step[];
}

/** Section 6: how a contractor goes live, in three numbered steps. */
export function GettingStarted({ title, steps }: Props) {
  return (
    <section className="mx-auto max-w-6xl px-4 py-14 md:px-6" aria-labelledby="start-title">
      <h2 id="start-title" className="text-3xl font-bold tracking-tight text-slate-900">
        {title}
      </h2>
      <ol className="mt-8 grid gap-6 md:grid-cols-3">
        {steps.map((step, i) => (
          <li key={step.title} className="flex gap-4">
            <span
              aria-hidden="true"
              className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-blue-700 text-lg font-bold text-white"
            >
              {i + 1}
            </span>
            <p>
              <strong className="block text-lg text-slate-900">{step.title}</strong>
              <span className="text-slate-700">{step.text}</span>
            </p>
          </li>
        ))}
      </ol>
    </section>
  );
}
