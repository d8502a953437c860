import RegisterButton from "../../features/accounts/RegisterButton.island";
import { formatPhone } from "../../lib/phone";
import { CallLink } from "../../ui/CallLink";
import { SpriteIcon } from "../../ui/SpriteIcon";
import { LeadCallCard, type LeadCallCardProps } from "./LeadCallCard";

interface Props {
  eyebrow: string;
  title: string;
  text: string;
  /** The registration button's label. */
  cta: string;
  points: string[];
  phone: string;
  /** The info address registration drafts go to. */
  email: string;
  lead: LeadCallCardProps;
}

/** Section 1: the promise, the call to action and a sample lead as contractors receive it. */
export function HomeHero({ eyebrow, title, text, cta, points, phone, email, lead }: Props) {
  return (
    <section className="bg-gradient-to-b from-blue-50 to-white">
      <div className="mx-auto grid max-w-6xl items-center gap-8 px-4 py-12 md:px-6 lg:grid-cols-2 lg:py-20">
        <div>
          <p className="font-bold text-blue-800">{eyebrow}</p>
          <h1 className="mt-3 text-4xl font-bold tracking-tight text-slate-900 md:text-5xl">{title}</h1>
          <p className="mt-5 text-lg text-slate-700">{text}</p>
          <div className="mt-8 flex flex-col flex-wrap gap-3 whitespace-nowrap sm:flex-row">
            <RegisterButton
              label={cta}
              infoEmail={email}
              className="inline-flex justify-center rounded-xl bg-blue-700 px-6 py-4 text-lg font-bold text-white shadow-lg hover:bg-blue-800"
            />
            <CallLink
              phone={phone}
              service="site"
              location="hero"
              className="inline-flex items-center justify-center gap-2 rounded-xl border border-slate-300 px-6 py-4 text-lg font-bold text-blue-800 hover:bg-blue-50"
            >
              <SpriteIcon name="phone" className="h-5 w-5" />
              Call {formatPhone(phone)}
            </CallLink>
          </div>
          <ul className="mt-6 flex flex-wrap gap-x-5 gap-y-2 text-sm font-normal text-slate-700">
            {points.map((point) => (
              <li key={point} className="flex items-center gap-1">
                <SpriteIcon name="check" className="h-4 w-4 text-green-700" />
                {point}
              </li>
            ))}
          </ul>
        </div>
        <LeadCallCard {...lead} />
      </div>
    </section>
  );
}
