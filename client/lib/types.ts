// Props the server passes to every page. The Rust side builds exactly these
// shapes (server/src/pages.rs); keep the two in step.

/** A lucide icon as data: a list of [tag, attributes] SVG children. */
export type IconNode = ReadonlyArray<readonly [string, Readonly<Record<string, string | number>>]>;

export interface SiteInfo {
  brand: string;
  /** Ten-digit North American number, digits only. */
  supportPhone: string;
  infoEmail: string;
  copyrightYear: number;
}

export interface Feature {
  title: string;
  description: string;
  icon: string;
}

export interface SampleProject {
  issue: string;
  location: string;
  urgency: string;
}

export interface Service {
  name: string;
  slug: string;
  title: string;
  subtitle: string;
  description: string;
  problemTitle: string;
  problemDescription: string;
  solutionTitle: string;
  solutionDescription: string;
  urgentMessage: string;
  icon: string;
  color: string;
  imageUrl: string;
  emergencyAvailable: boolean;
  warrantyYears: number;
  urgentScenarios: string[];
  features: Feature[];
  sampleProject: SampleProject;
}

export interface ServiceLink {
  name: string;
  slug: string;
  icon: string;
}

export interface Campaign {
  campaign: string;
  payouts: string;
  status: string;
  notes: string;
  cap: string;
  inbound: boolean;
  transfer: boolean;
  seconds: number;
  hours: string;
  geos: string;
  paymentTerms: string;
  promoAllowed?: string;
}

interface Base {
  site: SiteInfo;
  /** Icons this page needs, by lucide name. */
  icons: Record<string, IconNode>;
}

export interface HomeProps extends Base {
  page: "home";
  services: ServiceLink[];
}

export interface CampaignsProps extends Base {
  page: "campaigns";
  campaigns: Campaign[];
}

export interface Tracking {
  /** The TrustedForm consent certificate script runs on the page. */
  trustedform: boolean;
  /** The ad pixel's id when the pixel is on. */
  pixelId: string | null;
}

export interface ServiceProps extends Base {
  page: "service";
  service: Service;
  /** The number to call for this service: ten digits. */
  phone: string;
  /** The TCPA consent wording beside the callback form's checkbox. */
  consentText: string;
  tracking: Tracking;
}

export interface NotFoundProps extends Base {
  page: "not-found";
}

export interface LegalPageProps extends Base {
  page: "legal";
  document: "privacy" | "terms";
}

export type PageProps = HomeProps | CampaignsProps | ServiceProps | NotFoundProps | LegalPageProps;
