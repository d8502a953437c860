import type { ReactNode } from "react";
import { telHref } from "../lib/phone";

interface CallLinkProps {
  phone: string;
  /** Where on the page the link sits, for call tracking: "hero", "sticky-bar", "footer"… */
  location: string;
  /** The service slug, or "site" for pages that are not about one service. */
  service: string;
  className?: string;
  children: ReactNode;
  label?: string;
}

/** A tel: link carrying the call-tracking attributes (event call_click, service, location). */
export function CallLink({ phone, location, service, className, children, label }: CallLinkProps) {
  return (
    <a
      href={telHref(phone)}
      className={className}
      aria-label={label}
      data-track-event="call_click"
      data-track-service={service}
      data-track-location={location}
    >
      {children}
    </a>
  );
}
