import { SpriteIcon } from "../../ui/SpriteIcon";

interface Path {
  title: string;
  steps: string[];
}

interface Props {
  /** The icon sprite file. */
  sprite: string;
  title: string;
  text: string;
  cost: { figure: string; text: string };
  without: Path;
  with: Path;
}

/** Section 4: what a missed call does to the marketing that brought the call in. */
export function MarketingWaste({ sprite, title, text, cost, without, with: answered }: Props) {
  const path = (p: Path, icon: string, tone: string) => (
    <div className="rounded-2xl border border-slate-200 bg-white p-6">
      <h3 className="flex items-center gap-2 text-lg font-bold text-slate-900">
        <SpriteIcon sprite={sprite} name={icon} className={`h-5 w-5 ${tone}`} />
        {p.title}
      </h3>
      <ol className="mt-4 grid list-decimal gap-2 pl-5 text-slate-700">
        {p.steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
    </div>
  );
  return (
    <section aria-labelledby="waste-title">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-14 md:px-6 lg:grid-cols-2">
        <div>
          <h2 id="waste-title" className="text-3xl font-bold tracking-tight text-slate-900">
            {title}
          </h2>
          <p className="mt-4 text-lg text-slate-700">{text}</p>
          <p className="mt-6">
            <strong className="block text-4xl font-bold text-red-700">{cost.figure}</strong>
            <span className="text-slate-700">{cost.text}</span>
          </p>
        </div>
        <div className="grid gap-4 md:grid-cols-2">
          {path(without, "voicemail", "text-red-700")}
          {path(answered, "circle-check", "text-green-700")}
        </div>
      </div>
    </section>
  );
}
