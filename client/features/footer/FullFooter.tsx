import { formatPhone } from "../../lib/phone";
import type { ServiceLink, SiteInfo } from "../../lib/types";
import { CallLink } from "../../ui/CallLink";
import { EmailText } from "../../ui/EmailText";
import { Logo } from "../../ui/Logo";
import LegalLink from "../legal/LegalLink.island";

// The footer of the home page and /campaigns (docs/product.md, "The home page"). Phones get a call
// link, an e-mail link, service links with a collapsible 'More services', a company row, a
// collapsible contact block, social links and the legal links; desktops get four columns.
// The collapsibles are <details>, so they work without JavaScript.

/** Service links on both layouts, then the ones the phone layout adds (docs/product.md, "The home page"). */
export const FOOTER_SERVICES = ["hvac", "roofing", "plumbing", "pest-control", "electrician", "water-damage"];
export const MORE_SERVICES = [
  "siding",
  "flooring",
  "appliance-repair",
  "handyman",
  "bathroom-remodeling",
  "lawncare",
  "pressure-washing",
  "carpet-cleaning",
  "decks",
  "fences",
  "painting",
  "tree-services",
];
/** The desktop column shows the first ten of the combined list. */
export const DESKTOP_SERVICES = [...FOOTER_SERVICES, ...MORE_SERVICES].slice(0, 10);

interface Props {
  site: SiteInfo;
  services: ServiceLink[];
}

const HEADING = "mb-2 text-sm font-bold uppercase tracking-wide text-white";
const LINK = "hover:text-white hover:underline";
const SUMMARY = "py-2 font-bold text-white";
const BUTTON = "flex items-center justify-center rounded-xl px-4 py-3 font-bold";

export function FullFooter({ site, services }: Props) {
  const phone = site.supportPhone;
  const name = (slug: string) => services.find((s) => s.slug === slug)?.name ?? slug;
  const serviceLink = (slug: string) => (
    <a href={`/${slug}`} className={LINK}>
      {name(slug)}
    </a>
  );
  const company = [
    { href: "/#features", label: "About Us" },
    { href: "/#pricing", label: "Pricing" },
    { href: "/#contact", label: "Contact" },
  ];
  // The desktop contact column is narrow at tablet widths.
  const email = (
    <a href={`mailto:${site.infoEmail}`} className={LINK}>
      <EmailText address={site.infoEmail} />
    </a>
  );
  const call = (location: string, className = LINK) => (
    <CallLink phone={phone} service="site" location={location} className={className}>
      {formatPhone(phone)}
    </CallLink>
  );
  return (
    <footer className="bg-slate-900 text-sm text-slate-300">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 md:grid-cols-4 md:px-6">
        <div>
          <Logo brand={site.brand} inverted />
          <p className="mt-3">Professional call answering service for contractors and small businesses.</p>
        </div>
        {/* Phone layout: call and e-mail first. */}
        <div className="grid gap-3 md:hidden">
          <CallLink phone={phone} service="site" location="footer" className={`${BUTTON} bg-blue-700 text-white`}>
            {`Call ${formatPhone(phone)}`}
          </CallLink>
          <a href={`mailto:${site.infoEmail}`} className={`${BUTTON} border border-slate-500 text-white`}>
            {site.infoEmail}
          </a>
        </div>
        {/* Desktop layout: the contact column. */}
        <div className="hidden md:block">
          <h2 className={HEADING}>Contact</h2>
          <p className="grid gap-2">
            {call("footer", `${LINK} font-bold text-white`)}
            {email}
          </p>
        </div>
        <nav aria-label="Home services">
          <h2 className={HEADING}>Home Services</h2>
          <ul className="grid grid-cols-2 gap-x-4 md:block">
            {/* The first ten of the combined list: the shared six, then four the desktop alone shows. */}
            {DESKTOP_SERVICES.map((slug, i) => (
              <li key={slug} className={i < FOOTER_SERVICES.length ? "py-1" : "hidden py-1 md:list-item"}>
                {serviceLink(slug)}
              </li>
            ))}
          </ul>
          <details className="mt-3 md:hidden">
            <summary className={SUMMARY}>More services</summary>
            <ul className="mt-2 grid grid-cols-2 gap-2">
              {MORE_SERVICES.map((slug) => (
                <li key={slug}>{serviceLink(slug)}</li>
              ))}
            </ul>
          </details>
        </nav>
        <nav aria-label="Company">
          <h2 className={`${HEADING} hidden md:block`}>Company</h2>
          <ul className="flex flex-wrap gap-x-5 gap-y-2 md:grid">
            {company.map((link) => (
              <li key={link.label}>
                <a href={link.href} className={LINK}>
                  {link.label}
                </a>
              </li>
            ))}
            <li>
              <CallLink phone={phone} service="site" location="footer-support" className={LINK}>
                Support
              </CallLink>
            </li>
          </ul>
        </nav>
        {/* Phone layout: the collapsible contact block. */}
        <details className="md:hidden">
          <summary className={SUMMARY}>Contact us</summary>
          <p className="mt-2 grid gap-2">
            <span>Phone: {call("footer-contact")}</span>
            <span>E-mail: {email}</span>
            <span>Live agents answer 100% of calls in 3 rings or less.</span>
          </p>
        </details>
        <div className="flex flex-col gap-4 border-t border-slate-700 pt-6 md:col-span-4 md:flex-row md:items-center md:justify-between">
          {site.social.length ? (
            <ul aria-label="Follow us" className="flex gap-5">
              {site.social.map((profile) => (
                <li key={profile.url}>
                  <a href={profile.url} rel="me" className={LINK}>
                    {profile.name}
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
          <nav aria-label="Legal" className="flex gap-5">
            <LegalLink document="privacy" className="text-white underline" />
            <LegalLink document="terms" className="text-white underline" />
          </nav>
          <p>{`© ${site.copyrightYear} ${site.brand}. All rights reserved.`}</p>
        </div>
      </div>
    </footer>
  );
}
