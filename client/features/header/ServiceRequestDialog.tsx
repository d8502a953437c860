// The service request modal behind 'Get Service Now': the visitor picks one of the 42
// services, then asks for a callback with the service pages' own form (same fields, consent
// wording, submit-lead call, messages and 'Callback status' sheet). Loaded when first
// opened, so neither the picker nor the form weighs on the page's first load.
import { useEffect, useRef, useState } from "react";
import { formatPhone } from "../../lib/phone";
import type { ServiceLink } from "../../lib/types";
import { CallLink } from "../../ui/CallLink";
import { Dialog } from "../../ui/Dialog";
import { SpriteImage } from "../../ui/SpriteIcon";
import Callback from "../callback/Callback.island";
import { loadTrustedForm } from "../tracking/tracking";
import { matchServices } from "./serviceSearch";

/** Whether this page has loaded TrustedForm's script (here, not in lib/tracking, so the
 * service pages' chunks stay as small as they were). */
let trustedFormLoaded = false;

interface Props {
  services: ServiceLink[];
  /** The sprite file holding the services' icons. */
  spriteUrl: string;
  /** The support number, ten digits; `servicePhones` holds the services with their own. */
  phone: string;
  servicePhones: Record<string, string>;
  consentText: string;
  /** The TrustedForm script certifies the callback form: loaded once the form is shown. */
  certification: boolean;
  onClose: () => void;
  returnFocusTo: HTMLElement | null;
}

export default function ServiceRequestDialog({
  services,
  spriteUrl,
  phone,
  servicePhones,
  consentText,
  certification,
  onClose,
  returnFocusTo,
}: Props) {
  const [slug, setSlug] = useState<string | null>(null);
  const [query, setQuery] = useState("");
  const chosen = services.find((s) => s.slug === slug);
  const searchRef = useRef<HTMLInputElement>(null);
  const first = useRef(true);

  // After a choice, the form's first field; after 'Change service', the search box.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (chosen) document.getElementById("callback-name")?.focus();
    else searchRef.current?.focus();
  }, [chosen]);

  // TrustedForm certifies the forms on the page when its script loads: load it once this
  // form exists (service pages load it with the page, where their form already is).
  useEffect(() => {
    if (chosen && certification && !trustedFormLoaded) {
      trustedFormLoaded = true;
      loadTrustedForm();
    }
  }, [chosen, certification]);

  const shown = matchServices(services, query);
  const servicePhone = (chosen && servicePhones[chosen.slug]) || phone;
  return (
    <Dialog title="Get Service Now" eyebrow="Free for homeowners" onClose={onClose} testId="service-request" returnFocusTo={returnFocusTo}>
      {chosen ? (
        <>
          <div className="mb-4 flex items-center gap-3 rounded-xl bg-blue-50 p-3">
            <SpriteImage name={chosen.icon} sprite={spriteUrl} size={24} className="h-6 w-6 shrink-0" />
            <p className="flex-1 font-bold text-slate-900">{chosen.name}</p>
            <button type="button" onClick={() => setSlug(null)} className="text-sm font-bold text-blue-800 underline underline-offset-2">
              Change service
            </button>
          </div>
          <p className="mb-4 text-slate-700">
            Leave your number and a live agent calls you back to match you with a licensed local pro. Prefer to talk now? Call{" "}
            <CallLink phone={servicePhone} service={chosen.slug} location="service-request" className="font-bold text-blue-800 underline">
              {formatPhone(servicePhone)}
            </CallLink>
            .
          </p>
          {/* The service pages' callback island, as a part of this one: its form, the legal
              texts its consent wording opens and the 'Callback status' sheet. */}
          <Callback serviceSlug={chosen.slug} phone={servicePhone} consentText={consentText} certification={certification} />
        </>
      ) : (
        <>
          <label htmlFor="service-search" className="mb-1 block font-bold text-slate-900">
            What do you need help with?
          </label>
          <input
            ref={searchRef}
            id="service-search"
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder={`Search ${services.length} services`}
            autoComplete="off"
            data-autofocus
            className="w-full rounded-lg border border-slate-500 px-4 py-3 text-base"
          />
          <p className="sr-only" aria-live="polite">
            {shown.length === 1 ? "1 service" : `${shown.length} services`}
          </p>
          {shown.length ? (
            <ul className="mt-3 grid gap-2 md:grid-cols-2" aria-label="Services">
              {shown.map((s) => (
                <li key={s.slug}>
                  <button
                    type="button"
                    onClick={() => setSlug(s.slug)}
                    className="flex w-full items-center gap-3 rounded-lg border border-slate-200 px-3 py-2 text-left text-slate-900 hover:bg-blue-50"
                  >
                    <SpriteImage name={s.icon} sprite={spriteUrl} size={20} className="h-5 w-5 shrink-0" />
                    {s.name}
                  </button>
                </li>
              ))}
            </ul>
          ) : (
            <p className="mt-4 text-slate-700">
              No service matches “{query.trim()}”. Call{" "}
              <CallLink phone={phone} service="site" location="service-request" className="font-bold text-blue-800 underline">
                {formatPhone(phone)}
              </CallLink>{" "}
              and an agent will find the right pro.
            </p>
          )}
        </>
      )}
    </Dialog>
  );
}
