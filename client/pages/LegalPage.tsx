import { CallLink } from "../components/CallLink";
import { LEGAL_PATHS, LEGAL_TITLES, type LegalDocument } from "../components/LegalDialog";
import { LegalHeadingLevel, PrivacyPolicy, TermsOfService } from "../components/legal/LegalText";
import { Logo } from "../components/Logo";
import { SiteFooter } from "../components/SiteFooter";
import { formatPhone } from "../lib/phone";
import type { LegalPageProps } from "../lib/types";

const OTHER: Record<LegalDocument, LegalDocument> = { privacy: "terms", terms: "privacy" };

/** /privacy and /terms: the same texts the legal modals show, as pages of their own that
 * work without JavaScript and can be found by search engines. No island: nothing hydrates. */
export function LegalPage({ site, document }: LegalPageProps) {
  const Text = document === "privacy" ? PrivacyPolicy : TermsOfService;
  const other = OTHER[document];
  return (
    <>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-3xl items-center justify-between gap-3 px-4 py-3">
          <Logo brand={site.brand} />
          <CallLink phone={site.supportPhone} service="site" location="header" className="font-semibold text-blue-800">
            {formatPhone(site.supportPhone)}
          </CallLink>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-3xl px-4 py-10">
        <h1 className="text-3xl font-extrabold tracking-tight text-slate-900 md:text-4xl">{LEGAL_TITLES[document]}</h1>
        <div className="mt-4">
          <LegalHeadingLevel.Provider value={2}>
            <Text brand={site.brand} email={site.infoEmail} phone={formatPhone(site.supportPhone)} />
          </LegalHeadingLevel.Provider>
        </div>
      </main>
      <SiteFooter site={site} phone={site.supportPhone} service="site">
        <nav aria-label="Legal" className="mt-6 flex gap-6 text-sm">
          <a href={LEGAL_PATHS[other]} className="text-white underline underline-offset-4">
            {LEGAL_TITLES[other]}
          </a>
        </nav>
      </SiteFooter>
    </>
  );
}
