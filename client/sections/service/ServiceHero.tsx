import { formatPhone } from "../../lib/phone";
import type { IconNode, Service } from "../../lib/types";
import { CallButton } from "../../ui/CallButton";
import { Icon } from "../../ui/Icon";
import { Logo } from "../../ui/Logo";

interface Props {
  brand: string;
  service: Service;
  phone: string;
  /** The service's icon, shown when it has no image. */
  icon: IconNode | undefined;
}

/** Breadcrumb (desktop), badge, headline, claims, the hero call button and the service's
 * image or icon. */
export function ServiceHero({ brand, service, phone, icon }: Props) {
  return (
    <section className="bg-gradient-to-b from-slate-50 to-white">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 pb-8 pt-5 md:grid-cols-[1fr_auto] md:items-center md:px-6 md:py-16">
        <div>
          <div className="md:hidden">
            <Logo brand={brand} />
          </div>
          <nav aria-label="Breadcrumb" className="hidden text-sm text-slate-600 md:block">
            <ol className="flex gap-2">
              <li>
                <a href="/" className="underline-offset-4 hover:underline">
                  Home
                </a>
              </li>
              <li aria-hidden="true">/</li>
              <li aria-current="page" className="font-normal text-slate-900">
                {service.name}
              </li>
            </ol>
          </nav>
          <p
            className="mt-4 inline-flex items-center rounded-full bg-amber-100 px-3 py-1 text-sm font-bold text-amber-900"
            data-testid="badge"
          >
            {service.emergencyAvailable ? "24/7 Emergency" : "Fast Response"}
          </p>
          <h1 className="mt-3 text-3xl font-bold tracking-tight text-slate-900 md:text-5xl">{service.title}</h1>
          <p className="mt-3 text-lg text-slate-700 md:text-xl">{service.subtitle}</p>
          <p className="mt-3 hidden text-slate-600 md:block">{service.description}</p>
          <ul className="mt-4 flex flex-wrap gap-x-5 gap-y-1 text-sm font-bold text-slate-800" aria-label="Why homeowners call us">
            <li>5,000+ happy customers</li>
            <li>Rated 4.9/5</li>
          </ul>
          <CallButton
            phone={phone}
            service={service.slug}
            location="hero"
            className="mt-6 flex w-full items-center justify-center gap-3 rounded-xl bg-red-700 px-6 py-4 text-xl font-bold text-white shadow-lg hover:bg-red-800 md:inline-flex md:w-auto"
            label={`Call ${formatPhone(phone)}`}
          />
        </div>
        <div className="flex justify-center">
          {service.imageUrl ? (
            <img src={service.imageUrl} alt="" width={256} height={256} className="h-32 w-32 rounded-3xl object-cover md:h-64 md:w-64" />
          ) : (
            <div className="relative flex h-28 w-28 items-center justify-center text-white md:h-64 md:w-64">
              {/* The accent colour is an SVG fill, not a style attribute, so the CSP needs no unsafe-inline. */}
              <svg className="absolute inset-0 h-full w-full" viewBox="0 0 100 100" aria-hidden="true" focusable="false">
                <rect width="100" height="100" rx="22" fill={service.color} />
              </svg>
              <Icon node={icon} className="relative h-14 w-14 md:h-32 md:w-32" />
            </div>
          )}
        </div>
      </div>
    </section>
  );
}
