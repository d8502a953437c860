import { SiteFooter } from "../features/footer/SiteFooter";
import { SiteHeader } from "../features/header/SiteHeader";
import Tracking from "../features/tracking/Tracking.island";
import type { ServiceProps } from "../lib/types";
import { BottomCallBar } from "../sections/service/BottomCallBar";
import { CallbackSection } from "../sections/service/CallbackSection";
import { CallCard } from "../sections/service/CallCard";
import { ClosingCallToAction } from "../sections/service/ClosingCallToAction";
import { HowItWorks } from "../sections/service/HowItWorks";
import { ProblemSection } from "../sections/service/ProblemSection";
import { ServiceHero } from "../sections/service/ServiceHero";
import { SolutionSection } from "../sections/service/SolutionSection";
import { TrustBadges } from "../sections/service/TrustBadges";

const TRUST_BADGES = [
  { title: "Licensed & Insured", text: "Vetted local pros" },
  { title: "24/7 Emergency Service", text: "Live agents, any hour" },
];

const STEPS = [
  { title: "Call Us", text: "Tap the number. A live agent answers, day or night." },
  { title: "Answer a Few Questions", text: "Tell us what is wrong and where you are. It takes about two minutes." },
  { title: "Get Your Service", text: "We connect you with a licensed local pro who can take the job." },
];

const CALLBACK_POINTS = [
  "A real person calls you, not a robot",
  "Free for homeowners, no obligation",
  "Licensed, insured local contractors",
];

/** Landing page for one service (/{slug}). Phone and desktop layouts both come from the
 * server's HTML; CSS alone decides which sections show at which width. */
export function ServicePage({ site, service, phone, icons, consentText, tracking }: ServiceProps) {
  const slug = service.slug;
  return (
    <>
      <SiteHeader variant="service" brand={site.brand} phone={phone} service={slug} />
      <main id="main" className="pb-24 md:pb-0">
        <ServiceHero brand={site.brand} service={service} phone={phone} icon={icons[service.icon]} />
        {/* Phone: call card, trust cards, how it works. */}
        <div className="mx-auto max-w-6xl space-y-6 px-4 md:hidden">
          <CallCard phone={phone} service={slug} urgentMessage={service.urgentMessage} />
          <TrustBadges badges={TRUST_BADGES} />
          <HowItWorks steps={STEPS} />
        </div>
        <CallbackSection
          serviceSlug={slug}
          phone={phone}
          consentText={consentText}
          certification={tracking.trustedform}
          points={CALLBACK_POINTS}
          sampleProject={service.sampleProject}
        />
        {/* Desktop: problem, solution, final call to action. */}
        <ProblemSection
          title={service.problemTitle}
          description={service.problemDescription}
          urgentMessage={service.urgentMessage}
          scenarios={service.urgentScenarios}
        />
        <SolutionSection
          title={service.solutionTitle}
          description={service.solutionDescription}
          features={service.features}
          icons={icons}
        />
        <ClosingCallToAction serviceName={service.name} serviceSlug={slug} phone={phone} />
      </main>
      <SiteFooter variant="service" site={site} phone={phone} service={slug} />
      <BottomCallBar phone={phone} service={slug} />
      {tracking.trustedform || tracking.pixelId ? <Tracking trustedform={tracking.trustedform} pixelId={tracking.pixelId} /> : null}
    </>
  );
}
