import { formatPhone } from "../../lib/phone";
import type { ServiceLink, SiteInfo } from "../../lib/types";
import { CallLink } from "../../ui/CallLink";
import { Logo } from "../../ui/Logo";
import LegalLink from "../legal/LegalLink.island";
import { LEGAL_PATHS, LEGAL_TITLES } from "../legal/legal";
import { FullFooter } from "./FullFooter";

/** Which footer a page has:
 * - "site": the full footer of the home page and the campaign portal (footer/FullFooter):
 *   contact, service links, company links, social links, legal links and copyright;
 * - "service": brand, phone, e-mail and copyright with the contact column from desktop
 *   width only, the legal links (which open the texts in a modal once live) and the
 *   disclaimer, with room above the phone bottom bar;
 * - "legal": brand, phone, e-mail, plain links to both legal texts and copyright. */
export type FooterVariant = "site" | "service" | "legal";

type SiteFooterProps =
  | { variant: "site"; site: SiteInfo; services: ServiceLink[] }
  | {
      variant: "service" | "legal";
      site: SiteInfo;
      /** The number to show and dial (a service page's own number there). */
      phone: string;
      /** The service slug for call tracking, or "site". */
      service: string;
    };

const LEGAL_LINK = "text-white underline underline-offset-4";

/** The site's footer, one component for every page. */
export function SiteFooter(props: SiteFooterProps) {
  if (props.variant === "site") return <FullFooter site={props.site} services={props.services} />;
  const { variant, site, phone, service } = props;
  const isService = variant === "service";
  return (
    // mt-auto: at the foot of a page laid out as a column (RegisterPage); elsewhere nothing.
    <footer className={`bg-slate-900 text-slate-300 ${isService ? "pb-28 md:pb-0" : "mt-auto"}`}>
      <div className="mx-auto max-w-6xl px-4 py-10 md:px-6">
        <div className="flex flex-col gap-6 md:flex-row md:items-start md:justify-between">
          <div className="max-w-sm">
            <Logo brand={site.brand} inverted />
            <p className="mt-3 text-sm">Professional call answering service for contractors and small businesses.</p>
          </div>
          <div className={`${isService ? "hidden md:flex" : "flex"} flex-col gap-2 text-sm`}>
            <CallLink phone={phone} service={service} location="footer" className="font-bold text-white underline-offset-4 hover:underline">
              {formatPhone(phone)}
            </CallLink>
            <a href={`mailto:${site.infoEmail}`} className="text-white underline-offset-4 hover:underline">
              {site.infoEmail}
            </a>
          </div>
        </div>
        <nav aria-label="Legal" className="mt-6 flex gap-6 text-sm">
          {isService ? (
            <>
              <LegalLink document="privacy" className={LEGAL_LINK} />
              <LegalLink document="terms" className={LEGAL_LINK} />
            </>
          ) : (
            (["privacy", "terms"] as const).map((document) => (
              <a key={document} href={LEGAL_PATHS[document]} className={LEGAL_LINK}>
                {LEGAL_TITLES[document]}
              </a>
            ))
          )}
        </nav>
        {isService ? (
          <p className="mt-6 text-xs leading-relaxed text-slate-300">
            {site.brand} connects homeowners with independent, licensed contractors and is not itself a contractor. Calling us is free; you
            pay the contractor you choose directly. Availability and response times vary by area. Calls may be recorded for quality and
            compliance.
          </p>
        ) : null}
        <p className="mt-6 border-t border-slate-700 pt-6 text-xs text-slate-300">
          © {site.copyrightYear} {site.brand}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
