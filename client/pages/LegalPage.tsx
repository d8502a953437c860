import { SiteFooter } from "../features/footer/SiteFooter";
import { SiteHeader } from "../features/header/SiteHeader";
import { LegalText } from "../features/legal/LegalText";
import { LEGAL_TITLES } from "../features/legal/legal";
import type { LegalPageProps } from "../lib/types";

/** /privacy and /terms: the same texts the legal modals show, as pages of their own that
 * work without JavaScript and can be found by search engines. No island: nothing hydrates. */
export function LegalPage({ site, document, html }: LegalPageProps) {
  return (
    <>
      <SiteHeader variant="plain" brand={site.brand} phone={site.supportPhone} />
      <main id="main" className="mx-auto max-w-3xl px-4 py-10">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 md:text-4xl">{LEGAL_TITLES[document]}</h1>
        <div className="mt-4">
          <LegalText html={html} />
        </div>
      </main>
      <SiteFooter variant="legal" site={site} phone={site.supportPhone} service="site" />
    </>
  );
}
