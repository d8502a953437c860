import { formatPhone } from "../../lib/phone";
import type { ServiceLink } from "../../lib/types";
import { CallLink } from "../../ui/CallLink";
import { Logo } from "../../ui/Logo";
import { SpriteIcon, SpriteImage } from "../../ui/SpriteIcon";
import AccountLogin from "../accounts/AccountLogin.island";
import Disclosure from "./Disclosure.island";
import LoginChooser from "./LoginChooser.island";
import ServiceRequest from "./ServiceRequest.island";

export interface HomeHeaderProps {
  brand: string;
  /** The support number: ten digits. */
  phone: string;
  /** The info address the account dialog's sign-up drafts go to. */
  infoEmail: string;
  services: ServiceLink[];
  /** The sprite file holding the services' icons. */
  spriteUrl: string;
  /** Services with their own number (slug to ten digits). */
  servicePhones: Record<string, string>;
  /** The consent wording of the service request modal's callback form. */
  consentText: string;
  /** The TrustedForm script certifies the service request's callback form. */
  certification: boolean;
  /** The info address, and the campaign catalogue as JSON: the affiliate dashboard's. */
  email: string;
  campaignsUrl: string;
}

const LINK = "rounded-lg px-2 py-2 font-normal text-slate-800 hover:underline lg:px-0";

/** The landing page's header (docs/product.md, "The home page"): the claims banner, then the logo and
 * the navigation. Desktop: the Home Services dropdown, About, Contact, the rating badge,
 * 'For Contractors', the phone link and 'Get Service Now', with 'Log in' (the account dialog)
 * in the claims banner; from 1024 to 1279 px the rating badge is left out and the phone link
 * sits in the claims banner, so that the row fits. Phone and tablet (below 1024 px): 'Login'
 * (the account dialog) and a menu with the same items. The navigation is server HTML; only
 * its buttons are islands. */
export function HomeHeader({
  brand,
  phone,
  infoEmail,
  services,
  spriteUrl,
  servicePhones,
  consentText,
  certification,
  email,
  campaignsUrl,
}: HomeHeaderProps) {
  return (
    <>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-4 focus:py-2"
      >
        Skip to content
      </a>
      <header className="relative border-b border-slate-200 bg-white">
        <div className="relative bg-blue-800">
          <p className="flex justify-center gap-x-4 px-4 py-2 text-sm font-normal text-white">
            <span>Trusted by 500+ contractors</span>
            <span aria-hidden="true">·</span>
            <span>Live in 24 hours</span>
          </p>
          <div className="absolute inset-y-0 right-4 hidden items-center lg:flex">
            <AccountLogin place="banner" brand={brand} infoEmail={infoEmail} />
          </div>
        </div>
        <div className="mx-auto flex max-w-7xl items-center justify-between gap-3 px-4 py-3">
          <Logo brand={brand} />
          <div className="flex items-center gap-2 lg:hidden">
            <AccountLogin place="bar" brand={brand} infoEmail={infoEmail} />
            <Disclosure controls="site-nav" kind="menu" label="Menu" />
          </div>
          <nav
            id="site-nav"
            aria-label="Main"
            className="absolute inset-x-0 top-full z-30 hidden max-h-[calc(100vh-7rem)] flex-col gap-2 overflow-y-auto border-b border-slate-200 bg-white p-4 data-[open]:flex noscript:scroll-mt-40 noscript:target:flex noscript:[&:has(:target)]:flex lg:static lg:flex lg:max-h-none lg:flex-row lg:items-center lg:gap-5 lg:overflow-visible lg:border-0 lg:p-0"
          >
            {/* Without JavaScript the menu is open while the address targets it: this closes it
                (#top: the top of the page, so the claims banner shows again). */}
            <a
              href="#top"
              className="hidden self-end rounded-lg px-2 py-1 text-sm font-bold text-blue-800 underline noscript:block lg:noscript:hidden"
            >
              Close menu
            </a>
            <div className="order-last lg:relative lg:order-none">
              <Disclosure controls="services-menu" kind="dropdown" label="Home Services" />
              <p className="mt-2 border-t border-slate-200 pt-3 text-sm font-bold uppercase tracking-wide text-slate-600 lg:hidden">
                Home Services
              </p>
              <ul
                id="services-menu"
                className="grid grid-cols-2 gap-1 rounded-xl bg-white lg:absolute lg:top-full lg:z-30 lg:mt-4 lg:hidden lg:w-[600px] lg:grid-cols-3 lg:border lg:p-3 lg:data-[open]:grid noscript:scroll-mt-40 lg:noscript:target:grid"
              >
                {services.map((s) => (
                  <li key={s.slug}>
                    <a href={`/${s.slug}`} className="flex items-center gap-2 rounded-lg px-2 py-1 text-sm text-slate-800 hover:bg-blue-50">
                      <SpriteImage name={s.icon} sprite={spriteUrl} size={16} className="h-4 w-4 shrink-0" />
                      {s.name}
                    </a>
                  </li>
                ))}
                {/* Without JavaScript, on a wide screen, the dropdown's way out. */}
                <li className="hidden lg:col-span-3 lg:noscript:block">
                  <a href="#top" className="block rounded-lg px-2 py-1 text-right text-sm font-bold text-blue-800 underline">
                    Close
                  </a>
                </li>
              </ul>
            </div>
            <a href="/#features" className={LINK}>
              About
            </a>
            <a href="/#contact" className={LINK}>
              Contact
            </a>
            {/* Laptop widths (1024 to 1279 px) cannot fit every item in one row: the badge
                shows from 1280 px (and in the phone menu), the phone link moves up into the
                claims banner (below). */}
            <p className="whitespace-nowrap px-2 py-2 text-sm text-slate-700 lg:hidden lg:px-0 xl:block">
              <span aria-hidden="true" className="text-amber-500">
                ★
              </span>{" "}
              <strong className="text-slate-900">4.7</strong> from 230+ reviews
            </p>
            <LoginChooser phone={phone} email={email} campaignsUrl={campaignsUrl} />
            <CallLink
              phone={phone}
              service="site"
              location="header"
              className="flex items-center gap-2 rounded-lg px-2 py-2 font-bold text-blue-800 hover:underline lg:absolute lg:left-4 lg:top-0 lg:px-0 lg:text-sm lg:text-white xl:static xl:text-base xl:text-blue-800"
            >
              <SpriteIcon name="phone" className="h-4 w-4" />
              {formatPhone(phone)}
            </CallLink>
            <ServiceRequest
              servicesFrom="services-menu"
              spriteUrl={spriteUrl}
              phone={phone}
              servicePhones={servicePhones}
              consentText={consentText}
              certification={certification}
            />
          </nav>
        </div>
      </header>
    </>
  );
}
