import type { ReactNode } from "react";
import { SiteFooter } from "../../features/footer/SiteFooter";
import { SiteHeader } from "../../features/header/SiteHeader";
import type { SiteInfo } from "../../lib/types";

interface Props {
  site: SiteInfo;
  /** The number the header and footer show and dial: the support line unless a service has its own. */
  phone?: string;
  /** The service slug for call tracking, or "site". */
  service?: string;
  /** The classes of `<main>`: its width and how it lays out its content. */
  mainClassName: string;
  children: ReactNode;
}

/** The frame of the site's plain pages (the registration request form, the campaign
 * application, the thank-you pages): the plain header, the page's `<main>`, and the legal
 * footer. A column at least as tall as the window with the footer at its foot (SiteFooter's
 * mt-auto), so on a tall screen no band shows under the footer. */
export function PageFrame({ site, phone = site.supportPhone, service = "site", mainClassName, children }: Props) {
  return (
    <div className="flex min-h-screen flex-col">
      <SiteHeader variant="plain" brand={site.brand} phone={phone} />
      <main id="main" className={mainClassName}>
        {children}
      </main>
      <SiteFooter variant="legal" site={site} phone={phone} service={service} />
    </div>
  );
}
