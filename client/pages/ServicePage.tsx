import { CallLink } from "../components/CallLink";
import { Icon } from "../components/Icon";
import { Logo } from "../components/Logo";
import { SiteFooter } from "../components/SiteFooter";
import Callback from "../islands/Callback";
import LegalLink from "../islands/LegalLink";
import RequestCallback from "../islands/RequestCallback";
import Tracking from "../islands/Tracking";
import { formatPhone } from "../lib/phone";
import type { ServiceProps } from "../lib/types";

const STEPS = [
  { title: "Call Us", text: "Tap the number. A live agent answers, day or night." },
  { title: "Answer a Few Questions", text: "Tell us what is wrong and where you are. It takes about two minutes." },
  { title: "Get Your Service", text: "We connect you with a licensed local pro who can take the job." },
];

const CHECK: ReadonlyArray<readonly [string, Record<string, string>]> = [["path", { d: "M20 6 9 17l-5-5" }]];
const PHONE_ICON: ReadonlyArray<readonly [string, Record<string, string>]> = [
  [
    "path",
    {
      d: "M22 16.92v3a2 2 0 0 1-2.18 2 19.79 19.79 0 0 1-8.63-3.07 19.5 19.5 0 0 1-6-6 19.79 19.79 0 0 1-3.07-8.67A2 2 0 0 1 4.11 2h3a2 2 0 0 1 2 1.72 12.84 12.84 0 0 0 .7 2.81 2 2 0 0 1-.45 2.11L8.09 9.91a16 16 0 0 0 6 6l1.27-1.27a2 2 0 0 1 2.11-.45 12.84 12.84 0 0 0 2.81.7A2 2 0 0 1 22 16.92z",
    },
  ],
];

/** Landing page for one service (/{slug}). Phone and desktop layouts both come from the
 * server's HTML; CSS alone decides which parts show at which width. */
export function ServicePage({ site, service, phone, icons, consentText, tracking }: ServiceProps) {
  const display = formatPhone(phone);
  const slug = service.slug;
  const legal = { brand: site.brand, email: site.infoEmail, phone: formatPhone(site.supportPhone) };

  const call = (location: string, className: string, label: string) => (
    <CallLink phone={phone} service={slug} location={location} className={className}>
      <Icon node={PHONE_ICON} className="h-5 w-5 shrink-0" />
      <span>{label}</span>
    </CallLink>
  );

  return (
    <>
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-4 focus:py-2">
        Skip to content
      </a>
      {/* Phone: sticky call bar. */}
      <div className="sticky top-0 z-30 bg-red-700 text-white md:hidden">
        {call("sticky-bar", "flex items-center justify-center gap-2 px-4 py-2.5 text-base font-bold", `Call Now: ${display}`)}
      </div>
      {/* Desktop: header with a call button. */}
      <header className="sticky top-0 z-30 hidden border-b border-slate-200 bg-white/95 backdrop-blur md:block">
        <div className="mx-auto flex max-w-6xl items-center justify-between gap-3 px-6 py-3">
          <Logo brand={site.brand} />
          <div className="flex items-center gap-4">
            <span className="text-sm text-slate-600">Live agents answer 24/7</span>
            {call("header", "inline-flex items-center gap-2 rounded-lg bg-red-700 px-5 py-2.5 font-bold text-white shadow hover:bg-red-800", display)}
          </div>
        </div>
      </header>

      <main id="main" className="pb-24 md:pb-0">
        <section className="bg-gradient-to-b from-slate-50 to-white">
          <div className="mx-auto grid max-w-6xl gap-8 px-4 pb-8 pt-5 md:grid-cols-[1fr_auto] md:items-center md:px-6 md:py-16">
            <div>
              <div className="md:hidden">
                <Logo brand={site.brand} />
              </div>
              <nav aria-label="Breadcrumb" className="hidden text-sm text-slate-600 md:block">
                <ol className="flex gap-2">
                  <li>
                    <a href="/" className="underline-offset-4 hover:underline">
                      Home
                    </a>
                  </li>
                  <li aria-hidden="true">/</li>
                  <li aria-current="page" className="font-medium text-slate-900">
                    {service.name}
                  </li>
                </ol>
              </nav>
              <p className="mt-4 inline-flex items-center rounded-full bg-amber-100 px-3 py-1 text-sm font-bold text-amber-900" data-testid="badge">
                {service.emergencyAvailable ? "24/7 Emergency" : "Fast Response"}
              </p>
              <h1 className="mt-3 text-3xl font-extrabold tracking-tight text-slate-900 md:text-5xl">{service.title}</h1>
              <p className="mt-3 text-lg text-slate-700 md:text-xl">{service.subtitle}</p>
              <p className="mt-3 hidden text-slate-600 md:block">{service.description}</p>
              <ul className="mt-4 flex flex-wrap gap-x-5 gap-y-1 text-sm font-semibold text-slate-800" aria-label="Why homeowners call us">
                <li>5,000+ happy customers</li>
                <li>Rated 4.9/5</li>
              </ul>
              {call(
                "hero",
                "mt-6 flex w-full items-center justify-center gap-3 rounded-xl bg-red-700 px-6 py-4 text-xl font-extrabold text-white shadow-lg hover:bg-red-800 md:inline-flex md:w-auto",
                `Call ${display}`,
              )}
            </div>
            <div className="flex justify-center">
              {service.imageUrl ? (
                <img src={service.imageUrl} alt="" width={256} height={256} className="h-32 w-32 rounded-3xl object-cover md:h-64 md:w-64" />
              ) : (
                <div className="relative flex h-28 w-28 items-center justify-center text-white md:h-64 md:w-64">
                  {/* The accent colour is an SVG fill, not a style attribute, so the CSP needs no unsafe-inline. */}
                  <svg className="absolute inset-0 h-full w-full" viewBox="0 0 100 100" aria-hidden="true" focusable="false">
                    <rect width="100" height="100" rx="22" fill={service.color} />
                  </svg>
                  <Icon node={icons[service.icon]} className="relative h-14 w-14 md:h-32 md:w-32" />
                </div>
              )}
            </div>
          </div>
        </section>

        {/* Phone: call card, trust cards, how it works. */}
        <div className="mx-auto max-w-6xl space-y-6 px-4 md:hidden">
          <section aria-labelledby="call-card-title" className="rounded-2xl bg-slate-900 p-5 text-white">
            <h2 id="call-card-title" className="text-xl font-bold">
              Call Us Now
            </h2>
            <p className="mt-1 text-slate-200">{service.urgentMessage}</p>
            {call("card", "mt-4 flex items-center justify-center gap-2 rounded-xl bg-white px-4 py-3 text-lg font-extrabold text-slate-900", display)}
          </section>
          <ul className="grid grid-cols-2 gap-3">
            {[
              ["Licensed & Insured", "Vetted local pros"],
              ["24/7 Emergency Service", "Live agents, any hour"],
            ].map(([title, text]) => (
              <li key={title} className="rounded-xl border border-slate-200 p-4">
                <Icon node={CHECK} className="h-5 w-5 text-green-700" />
                <p className="mt-2 font-bold text-slate-900">{title}</p>
                <p className="text-sm text-slate-600">{text}</p>
              </li>
            ))}
          </ul>
          <section aria-labelledby="how-title">
            <h2 id="how-title" className="text-2xl font-bold text-slate-900">
              How It Works
            </h2>
            <ol className="mt-4 space-y-3">
              {STEPS.map((step, i) => (
                <li key={step.title} className="flex gap-4 rounded-xl bg-slate-50 p-4">
                  <span className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-blue-700 font-bold text-white" aria-hidden="true">
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
        </div>

        <section id="callback" aria-labelledby="callback-title" className="mx-auto mt-8 max-w-6xl scroll-mt-16 px-4 md:mt-0 md:px-6 md:py-12">
          <div className="grid gap-8 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm md:grid-cols-2 md:p-10">
            <div>
              <h2 id="callback-title" className="text-2xl font-bold text-slate-900 md:text-3xl">
                Prefer a Callback?
              </h2>
              <p className="mt-2 text-slate-700">Leave your name and number and a live agent will call you back to find the right local pro.</p>
              <ul className="mt-6 hidden space-y-3 text-slate-800 md:block">
                {["A real person calls you, not a robot", "Free for homeowners, no obligation", "Licensed, insured local contractors"].map((point) => (
                  <li key={point} className="flex items-start gap-3">
                    <Icon node={CHECK} className="mt-0.5 h-5 w-5 shrink-0 text-green-700" />
                    {point}
                  </li>
                ))}
              </ul>
              <p className="mt-6 hidden rounded-lg bg-slate-50 p-4 text-sm text-slate-700 md:block">
                <span className="font-semibold text-slate-900">A recent request:</span> {service.sampleProject.issue} ({service.sampleProject.location},{" "}
                {service.sampleProject.urgency.toLowerCase()})
              </p>
            </div>
            <Callback serviceSlug={slug} phone={phone} consentText={consentText} certification={tracking.trustedform} legal={legal} />
          </div>
        </section>

        {/* Desktop: problem, solution, final call to action. */}
        <section aria-labelledby="problem-title" className="mx-auto hidden max-w-6xl px-6 py-12 md:block">
          <h2 id="problem-title" className="text-3xl font-bold text-slate-900">
            {service.problemTitle}
          </h2>
          <p className="mt-3 max-w-3xl text-slate-700">{service.problemDescription}</p>
          <p className="mt-5 rounded-lg border-l-4 border-red-700 bg-red-50 p-4 font-semibold text-red-900">{service.urgentMessage}</p>
          <ul className="mt-6 grid grid-cols-2 gap-3">
            {service.urgentScenarios.map((scenario) => (
              <li key={scenario} className="flex items-start gap-3 rounded-lg border border-slate-200 p-4 text-slate-800">
                <Icon node={CHECK} className="mt-0.5 h-5 w-5 shrink-0 text-red-700" />
                {scenario}
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="solution-title" className="hidden bg-slate-50 md:block">
          <div className="mx-auto max-w-6xl px-6 py-12">
            <h2 id="solution-title" className="text-3xl font-bold text-slate-900">
              {service.solutionTitle}
            </h2>
            <p className="mt-3 max-w-3xl text-slate-700">{service.solutionDescription}</p>
            <ul className="mt-8 grid grid-cols-3 gap-6">
              {service.features.map((feature) => (
                <li key={feature.title} className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
                  <Icon node={icons[feature.icon]} className="h-8 w-8 text-blue-700" />
                  <h3 className="mt-3 font-bold text-slate-900">{feature.title}</h3>
                  <p className="mt-2 text-sm text-slate-700">{feature.description}</p>
                </li>
              ))}
            </ul>
          </div>
        </section>
        <section aria-labelledby="cta-title" className="mx-auto hidden max-w-6xl px-6 py-14 text-center md:block">
          <h2 id="cta-title" className="text-3xl font-bold text-slate-900">
            Talk to a local {service.name} pro today
          </h2>
          <p className="mt-2 text-slate-700">One call connects you with a licensed local contractor. Calling us is free.</p>
          {call("final-cta", "mt-6 inline-flex items-center justify-center gap-3 rounded-xl bg-red-700 px-8 py-4 text-xl font-extrabold text-white shadow-lg hover:bg-red-800", `Call ${display}`)}
        </section>
      </main>

      <SiteFooter site={site} phone={phone} service={slug} contactOnDesktopOnly className="pb-28 md:pb-0">
        <nav aria-label="Legal" className="mt-6 flex gap-6 text-sm">
          <LegalLink document="privacy" className="text-white underline underline-offset-4" legal={legal} />
          <LegalLink document="terms" className="text-white underline underline-offset-4" legal={legal} />
        </nav>
        <p className="mt-6 text-xs leading-relaxed text-slate-300">
          {site.brand} connects homeowners with independent, licensed contractors and is not itself a contractor. Calling us is free; you
          pay the contractor you choose directly. Availability and response times vary by area. Calls may be recorded for quality and
          compliance.
        </p>
      </SiteFooter>

      {/* Phone: fixed bottom bar. */}
      <div className="fixed inset-x-0 bottom-0 z-30 grid grid-cols-2 gap-2 border-t border-slate-200 bg-white p-2 shadow-[0_-4px_12px_rgba(0,0,0,0.08)] md:hidden">
        {call("bottom-bar", "flex items-center justify-center gap-2 rounded-xl bg-red-700 px-3 py-3 font-bold text-white", "Tap To Call Now")}
        <RequestCallback className="rounded-xl bg-blue-700 px-3 py-3 font-bold text-white" />
      </div>

      {tracking.trustedform || tracking.pixelId ? <Tracking trustedform={tracking.trustedform} pixelId={tracking.pixelId} /> : null}
    </>
  );
}
