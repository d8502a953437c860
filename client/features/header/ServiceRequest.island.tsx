import { lazy, Suspense, useRef, useState } from "react";
import { defineIsland } from "../../islands/island";
import type { ServiceLink } from "../../lib/types";
import { ScriptButton } from "../../ui/ScriptButton";
import { readServiceLinks } from "./serviceLinks";

// The picker and the callback form load when first opened.
const ServiceRequestDialog = lazy(() => import("./overlays").then((m) => ({ default: m.ServiceRequestDialog })));

interface Props {
  /** The id of the page's service menu, whose links list the services to pick from (so
   * the 42 services are in the page once, not again in these props). */
  servicesFrom: string;
  /** The sprite file holding the services' icons. */
  spriteUrl: string;
  /** The support number: ten digits. */
  phone: string;
  /** Services with their own number (slug to ten digits). */
  servicePhones: Record<string, string>;
  /** The consent wording beside the callback form's checkbox. */
  consentText: string;
  /** The TrustedForm script certifies the callback form (loaded when the form shows). */
  certification: boolean;
}

const PRIMARY = "whitespace-nowrap rounded-xl bg-blue-700 px-4 py-2.5 font-bold text-white hover:bg-blue-800";

/** 'Get Service Now' and the service request modal it opens. */
function ServiceRequest({ servicesFrom, spriteUrl, phone, servicePhones, consentText, certification }: Props) {
  const [services, setServices] = useState<ServiceLink[] | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <>
      {/* Without JavaScript: a link to the menu of services, each page with its own callback form. */}
      <ScriptButton
        ref={button}
        aria-haspopup="dialog"
        onClick={() => setServices(readServiceLinks(document.getElementById(servicesFrom)))}
        href={`#${servicesFrom}`}
        className={PRIMARY}
      >
        Get Service Now
      </ScriptButton>
      {services ? (
        <Suspense fallback={null}>
          <ServiceRequestDialog
            services={services}
            spriteUrl={spriteUrl}
            phone={phone}
            servicePhones={servicePhones}
            consentText={consentText}
            certification={certification}
            onClose={() => setServices(null)}
            returnFocusTo={button.current}
          />
        </Suspense>
      ) : null}
    </>
  );
}

export default defineIsland("ServiceRequest", ServiceRequest);
