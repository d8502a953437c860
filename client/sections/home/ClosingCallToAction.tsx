import RegisterButton from "../../features/accounts/RegisterButton.island";
import { formatPhone } from "../../lib/phone";
import { CallLink } from "../../ui/CallLink";
import { SpriteIcon } from "../../ui/SpriteIcon";

interface Props {
  /** The icon sprite file. */
  sprite: string;
  title: string;
  text: string;
  /** The registration button's label. */
  cta: string;
  phone: string;
  email: string;
  pricingTitle: string;
  pricing: string[];
  pricingNote: string;
  proof: string;
}

/** Section 5 (#contact, the Contact links' target): register, call or write to get started,
 * with the terms (#pricing, the footer's Pricing link). */
export function ClosingCallToAction({ sprite, title, text, cta, phone, email, pricingTitle, pricing, pricingNote, proof }: Props) {
  return (
    <section id="contact" className="bg-blue-800 text-white" aria-labelledby="contact-title">
      <div className="mx-auto grid max-w-6xl items-center gap-8 px-4 py-14 md:px-6 lg:grid-cols-2">
        <div>
          <h2 id="contact-title" className="text-3xl font-bold tracking-tight md:text-4xl">
            {title}
          </h2>
          <p className="mt-4 text-lg">{text}</p>
          <RegisterButton
            label={cta}
            infoEmail={email}
            className="mt-8 inline-flex w-full items-center justify-center rounded-xl bg-amber-400 px-6 py-4 text-lg font-bold text-slate-900 hover:bg-amber-300 sm:w-auto"
          />
          <div className="mt-3 flex flex-col flex-wrap gap-3 whitespace-nowrap sm:flex-row">
            <CallLink
              phone={phone}
              service="site"
              location="contact"
              className="inline-flex items-center justify-center gap-2 rounded-xl bg-white px-6 py-4 text-lg font-bold text-blue-800 hover:bg-blue-50"
            >
              <SpriteIcon sprite={sprite} name="phone" className="h-5 w-5" />
              Call {formatPhone(phone)}
            </CallLink>
            <a href={`mailto:${email}`} className="inline-flex items-center justify-center gap-2 px-6 py-4 font-bold underline">
              <SpriteIcon sprite={sprite} name="mail" className="h-5 w-5" />
              {email}
            </a>
          </div>
          <p className="mt-6">
            <span aria-hidden="true">★</span> {proof}
          </p>
        </div>
        <div id="pricing" className="rounded-2xl bg-white p-6 text-slate-900">
          <h3 className="text-xl font-bold">{pricingTitle}</h3>
          <ul className="mt-4 grid grid-cols-2 gap-3">
            {pricing.map((term) => (
              <li key={term} className="flex items-center gap-2 font-bold">
                <SpriteIcon sprite={sprite} name="check" className="h-5 w-5 text-green-700" />
                {term}
              </li>
            ))}
          </ul>
          <p className="mt-4 text-slate-700">{pricingNote}</p>
        </div>
      </div>
    </section>
  );
}
