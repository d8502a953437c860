import type { ReactNode } from "react";
import type { SiteInfo } from "../lib/types";
import { formatPhone } from "../lib/phone";
import { CallLink } from "./CallLink";
import { Logo } from "./Logo";

interface SiteFooterProps {
  site: SiteInfo;
  phone: string;
  service: string;
  /** Show the phone and e-mail column from the desktop width only. */
  contactOnDesktopOnly?: boolean;
  /** Extra bottom room, e.g. above a fixed bar on phones. */
  className?: string;
  children?: ReactNode;
}

/** Footer shared by every page: brand, phone, e-mail, copyright, and page-specific extras. */
export function SiteFooter({ site, phone, service, contactOnDesktopOnly = false, className = "", children }: SiteFooterProps) {
  return (
    <footer className={`bg-slate-900 text-slate-300 ${className}`}>
      <div className="mx-auto max-w-6xl px-4 py-10 md:px-6">
        <div className="flex flex-col gap-6 md:flex-row md:items-start md:justify-between">
          <div className="max-w-sm">
            <Logo brand={site.brand} inverted />
            <p className="mt-3 text-sm">Professional call answering service for contractors and small businesses.</p>
          </div>
          <div className={`${contactOnDesktopOnly ? "hidden md:flex" : "flex"} flex-col gap-2 text-sm`}>
            <CallLink phone={phone} service={service} location="footer" className="font-semibold text-white underline-offset-4 hover:underline">
              {formatPhone(phone)}
            </CallLink>
            <a href={`mailto:${site.infoEmail}`} className="text-white underline-offset-4 hover:underline">
              {site.infoEmail}
            </a>
          </div>
        </div>
        {children}
        <p className="mt-6 border-t border-slate-700 pt-6 text-xs text-slate-300">
          © {site.copyrightYear} {site.brand}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
