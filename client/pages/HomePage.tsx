import { CallLink } from "../components/CallLink";
import { SiteFooter } from "../components/SiteFooter";
import { SiteHeader } from "../components/SiteHeader";
import { IconSprite, SpriteIcon } from "../components/SpriteIcon";
import { formatPhone } from "../lib/format";
import type { HomeProps } from "../lib/types";

/** The landing page (/). The full seven-section page is its own piece of work; this
 * version carries the header, hero and the complete service directory. */
export function HomePage({ site, services, icons, spriteUrl, servicePhones, consentText }: HomeProps) {
  const phone = site.supportPhone;
  return (
    <>
      <IconSprite icons={icons} />
      <SiteHeader
        variant="home"
        brand={site.brand}
        phone={phone}
        services={services}
        spriteUrl={spriteUrl}
        servicePhones={servicePhones}
        consentText={consentText}
      />

      <main id="main">
        <section className="bg-gradient-to-b from-blue-50 to-white">
          <div className="mx-auto max-w-6xl px-4 py-14 text-center md:py-20">
            <h1 className="text-4xl font-extrabold tracking-tight text-slate-900 md:text-6xl">
              Stop Missing Calls. Start Converting Leads.
            </h1>
            <p className="mx-auto mt-5 max-w-2xl text-lg text-slate-700">
              Live agents answer 100% of your calls in 3 rings or less, qualify every lead and deliver recordings,
              transcripts, SMS and e-mail within seconds. No setup fees, no contracts, cancel anytime.
            </p>
            <a href="#contact" className="mt-8 inline-flex rounded-xl bg-blue-700 px-8 py-4 text-lg font-bold text-white shadow-lg hover:bg-blue-800">
              Get Started Today
            </a>
          </div>
        </section>

        <section id="features" className="mx-auto max-w-6xl px-4 py-12" aria-labelledby="services-title">
          <h2 id="services-title" className="text-2xl font-bold text-slate-900 md:text-3xl">Home services</h2>
          <ul className="mt-6 grid grid-cols-2 gap-3 md:grid-cols-3">
            {services.map((service) => (
              <li key={service.slug}>
                <a href={`/${service.slug}`} className="flex items-center gap-3 rounded-lg border border-slate-200 p-3 text-slate-800 hover:border-blue-600 hover:bg-blue-50">
                  <SpriteIcon name={service.icon} sprite={spriteUrl} className="h-5 w-5 shrink-0 text-blue-700" />
                  <span>{service.name}</span>
                </a>
              </li>
            ))}
          </ul>
        </section>

        <section id="contact" className="bg-slate-50">
          <div className="mx-auto max-w-6xl px-4 py-12 text-center">
            <h2 className="text-2xl font-bold text-slate-900 md:text-3xl">Every missed call costs $500-$5,000</h2>
            <p className="mt-3 text-slate-700">Rated 4.7 from 230+ reviews. Call us and be live in 24 hours.</p>
            <CallLink phone={phone} service="site" location="contact" className="mt-6 inline-flex rounded-xl bg-blue-700 px-8 py-4 text-lg font-bold text-white hover:bg-blue-800">
              Call {formatPhone(phone)}
            </CallLink>
          </div>
        </section>
      </main>

      <SiteFooter variant="site" site={site} services={services} />
    </>
  );
}
