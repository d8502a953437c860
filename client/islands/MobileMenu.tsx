import { useState } from "react";
import type { ServiceLink } from "../lib/types";
import { defineIsland } from "./island";

/** The phone header's menu: a disclosure button and the service links it shows. The links
 * are in the server HTML (hidden until opened), so crawlers see them. */
function MobileMenu({ services }: { services: ServiceLink[] }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="rounded-lg border border-slate-300 px-3 py-2 text-sm font-semibold text-slate-800 md:hidden"
        aria-expanded={open}
        aria-controls="mobile-menu"
        onClick={() => setOpen((was) => !was)}
      >
        {open ? "Close menu" : "Menu"}
      </button>
      <div id="mobile-menu" hidden={!open} className="absolute inset-x-0 top-full z-30 border-y border-slate-200 bg-white px-4 py-4 shadow-lg md:hidden">
        <ul className="grid grid-cols-2 gap-2">
          {services.map((service) => (
            <li key={service.slug}>
              <a href={`/${service.slug}`} className="block rounded px-2 py-1 text-slate-800 hover:bg-slate-100">
                {service.name}
              </a>
            </li>
          ))}
        </ul>
      </div>
    </>
  );
}

export default defineIsland("MobileMenu", MobileMenu);
