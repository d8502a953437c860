import { SiteFooter } from "../features/footer/SiteFooter";
import { SiteHeader } from "../features/header/SiteHeader";
import type { HomeProps } from "../lib/types";
import { ClosingCallToAction } from "../sections/home/ClosingCallToAction";
import { FeatureLayers } from "../sections/home/FeatureLayers";
import { GettingStarted } from "../sections/home/GettingStarted";
import { HomeHero } from "../sections/home/HomeHero";
import { MarketingWaste } from "../sections/home/MarketingWaste";
import { ProblemLeakFix } from "../sections/home/ProblemLeakFix";
import { IconSprite } from "../ui/SpriteIcon";
import { CLOSING, FEATURES, GETTING_STARTED, HERO, MARKETING_WASTE, PROBLEM, SAMPLE_LEAD } from "./homeContent";

/** The landing page (/): the header with its overlays, then a stack of seven sections
 * (hero, problem, features, marketing waste, closing call to action, getting started,
 * footer). The first screen's icons come from the page's inline sprite; the services'
 * icons and those of the sections below from the sprite file. */
export function HomePage({ site, services, icons, spriteUrl, servicePhones, consentText, certification, campaignsUrl }: HomeProps) {
  const phone = site.supportPhone;
  return (
    <>
      <IconSprite icons={icons} />
      <SiteHeader
        variant="home"
        brand={site.brand}
        phone={phone}
        infoEmail={site.infoEmail}
        services={services}
        spriteUrl={spriteUrl}
        servicePhones={servicePhones}
        consentText={consentText}
        certification={certification}
        email={site.infoEmail}
        campaignsUrl={campaignsUrl}
      />
      <main id="main">
        <HomeHero {...HERO} phone={phone} email={site.infoEmail} lead={SAMPLE_LEAD} />
        <ProblemLeakFix {...PROBLEM} sprite={spriteUrl} />
        <FeatureLayers {...FEATURES} sprite={spriteUrl} />
        <MarketingWaste {...MARKETING_WASTE} sprite={spriteUrl} />
        <ClosingCallToAction {...CLOSING} phone={phone} email={site.infoEmail} sprite={spriteUrl} />
        <GettingStarted {...GETTING_STARTED} />
      </main>
      <SiteFooter variant="site" site={site} services={services} />
    </>
  );
}
