// Generated from server/src/pages/props.rs by `make types`: do not edit.
// The props the server renders each page with (and the catalogue types inside them).

/** A lucide icon as data: a list of [tag, attributes] SVG children. */
export type IconNode = ReadonlyArray<readonly [string, Readonly<Record<string, string | number>>]>;

export type SocialLink = { name: string, url: string, };

export type SiteInfo = { brand: string, 
/**
 * Ten-digit North American number, digits only.
 */
supportPhone: string, infoEmail: string, copyrightYear: number, 
/**
 * The brand's social profiles, in footer order.
 */
social: Array<SocialLink>, };

export type ServiceLink = { name: string, slug: string, icon: string, };

export type Tracking = { 
/**
 * The TrustedForm consent certificate script runs on the page.
 */
trustedform: boolean, 
/**
 * The ad pixel's id when the pixel is on.
 */
pixelId: string | null, };

export type LegalDocument = "privacy" | "terms";

export type Feature = { title: string, description: string, icon: string, };

export type SampleProject = { issue: string, location: string, urgency: string, };

export type Service = { name: string, slug: string, title: string, subtitle: string, description: string, problemTitle: string, problemDescription: string, solutionTitle: string, solutionDescription: string, urgentMessage: string, icon: string, color: string, imageUrl: string, emergencyAvailable: boolean, warrantyYears: number, urgentScenarios: Array<string>, features: Array<Feature>, sampleProject: SampleProject, };

export type Campaign = { campaign: string, payouts: string, status: string, notes: string, cap: string, inbound: boolean, transfer: boolean, seconds: number, hours: string, geos: string, paymentTerms: string, promoAllowed?: string, };

export type HomeProps = { site: SiteInfo, 
/**
 * Icons this page draws inline, by lucide name.
 */
icons: Record<string, IconNode>, 
/**
 * The SVG sprite file (an immutable asset, symbols `i-<icon>`) with the services' icons and
 * the icons of the sections below the first screen.
 */
spriteUrl: string, services: Array<ServiceLink>, 
/**
 * Services with their own number (slug to ten digits); the rest use the support phone.
 */
servicePhones: Record<string, string>, 
/**
 * The TCPA consent wording beside the service request modal's callback form.
 */
consentText: string, 
/**
 * The TrustedForm consent certificate script runs for that form (once it is shown).
 */
certification: boolean, };

export type CampaignsProps = { site: SiteInfo, icons: Record<string, IconNode>, campaigns: Array<Campaign>, 
/**
 * The service catalogue's names and slugs, for the footer's service links.
 */
services: Array<ServiceLink>, };

export type ServiceProps = { site: SiteInfo, icons: Record<string, IconNode>, service: Service, 
/**
 * The number to call for this service: ten digits.
 */
phone: string, 
/**
 * The TCPA consent wording beside the callback form's checkbox.
 */
consentText: string, tracking: Tracking, };

export type LegalPageProps = { site: SiteInfo, icons: Record<string, IconNode>, document: LegalDocument, 
/**
 * The text as HTML, rendered from its content file (sections as h2).
 */
html: string, };

export type NotFoundProps = { site: SiteInfo, icons: Record<string, IconNode>, };

export type PageProps = { "page": "home" } & HomeProps | { "page": "campaigns" } & CampaignsProps | { "page": "service" } & ServiceProps | { "page": "legal" } & LegalPageProps | { "page": "not-found" } & NotFoundProps;
