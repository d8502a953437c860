import { SpriteIcon } from "../../ui/SpriteIcon";

interface Item {
  icon: string;
  title: string;
  text: string;
}

interface Props {
  /** The icon sprite file. */
  sprite: string;
  eyebrow: string;
  title: string;
  layers: Item[];
  capabilitiesTitle: string;
  capabilities: Item[];
}

/** Section 3 (#features, the About link's target): the three layers and six capabilities. */
export function FeatureLayers({ sprite, eyebrow, title, layers, capabilitiesTitle, capabilities }: Props) {
  return (
    <section id="features" className="bg-slate-50" aria-labelledby="features-title">
      <div className="mx-auto max-w-6xl px-4 py-14 md:px-6">
        <p className="font-bold text-blue-800">{eyebrow}</p>
        <h2 id="features-title" className="mt-2 max-w-3xl text-3xl font-bold tracking-tight text-slate-900">
          {title}
        </h2>
        <ol className="mt-8 grid gap-6 md:grid-cols-3">
          {layers.map((layer, i) => (
            <li key={layer.title} className="rounded-2xl border border-slate-200 bg-white p-6">
              <p className="flex items-center gap-3 text-sm font-bold text-blue-800">
                <SpriteIcon sprite={sprite} name={layer.icon} className="h-6 w-6" />
                Layer {i + 1}
              </p>
              <h3 className="mt-3 text-xl font-bold text-slate-900">{layer.title}</h3>
              <p className="mt-2 text-slate-700">{layer.text}</p>
            </li>
          ))}
        </ol>
        <h3 className="mt-10 text-xl font-bold text-slate-900">{capabilitiesTitle}</h3>
        <ul className="mt-5 grid gap-6 md:grid-cols-3">
          {capabilities.map((c) => (
            <li key={c.title} className="flex gap-3">
              <SpriteIcon sprite={sprite} name={c.icon} className="mt-0.5 h-6 w-6 shrink-0 text-blue-700" />
              <p>
                <strong className="block text-slate-900">{c.title}</strong>
                <span className="text-slate-700">{c.text}</span>
              </p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
