import { formatPhone } from "../../lib/phone";
import { CallButton } from "../../ui/CallButton";
import { CallLink } from "../../ui/CallLink";
import { Logo } from "../../ui/Logo";
import { HomeHeader, type HomeHeaderProps } from "./HomeHeader";

/** Which header a page has:
 * - "home": the claims banner, the main navigation and the phone menu of the landing page;
 * - "service": a service page's sticky header: a call bar (phone), or the logo with a call button (desktop);
 * - "plain": the logo and the support number (campaign portal, legal pages). */
export type SiteHeaderProps =
  | ({ variant: "home" } & HomeHeaderProps)
  | { variant: "service"; brand: string; phone: string; service: string }
  | { variant: "plain"; brand: string; phone: string };

/** The site's header, one component for every page. */
export function SiteHeader(props: SiteHeaderProps) {
  const { brand, phone } = props;
  switch (props.variant) {
    case "home":
      return <HomeHeader {...props} />;
    case "service":
      return (
        <>
          <a
            href="#main"
            className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-4 focus:py-2"
          >
            Skip to content
          </a>
          {/* One banner landmark for both layouts; CSS shows one part per width. */}
          <header className="sticky top-0 z-30">
            {/* Phone: the call bar. */}
            <div className="bg-red-700 text-white md:hidden">
              <CallButton
                phone={phone}
                service={props.service}
                location="sticky-bar"
                className="flex items-center justify-center gap-2 px-4 py-2.5 text-base font-bold"
                label={`Call Now: ${formatPhone(phone)}`}
              />
            </div>
            {/* Desktop: the logo and a call button. */}
            <div data-testid="desktop-header" className="hidden border-b border-slate-200 bg-white/95 backdrop-blur md:block">
              <div className="mx-auto flex max-w-6xl items-center justify-between gap-3 px-6 py-3">
                <Logo brand={brand} />
                <CallButton
                  phone={phone}
                  service={props.service}
                  location="header"
                  className="inline-flex items-center gap-2 rounded-lg bg-red-700 px-5 py-2.5 font-bold text-white shadow hover:bg-red-800"
                  label={formatPhone(phone)}
                />
              </div>
            </div>
          </header>
        </>
      );
    case "plain":
      return (
        <header className="border-b border-slate-200 bg-white">
          <div className="mx-auto flex max-w-6xl items-center justify-between gap-3 px-4 py-3">
            <Logo brand={brand} />
            <CallLink phone={phone} service="site" location="header" className="font-bold text-blue-800">
              {formatPhone(phone)}
            </CallLink>
          </div>
        </header>
      );
  }
}
