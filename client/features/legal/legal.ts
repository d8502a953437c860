// The two legal texts. Their wording lives in catalogue/legal/*.md; the server renders it
// for the /privacy and /terms pages and for the modals, which fetch it on first open.

import type { LegalDocument } from "../../lib/types";

export type { LegalDocument };

export const LEGAL_TITLES: Record<LegalDocument, string> = { privacy: "Privacy Policy", terms: "Terms of Service" };

/** Each text is a page of its own, for links that work without JavaScript. */
export const LEGAL_PATHS: Record<LegalDocument, string> = { privacy: "/privacy", terms: "/terms" };

/** Where a modal fetches the text (sections as h3, under the dialog's title). */
export const legalFragmentUrl = (document: LegalDocument): string => `/legal/${document}.html`;

/** The sections each text must have, in this order (the product's requirements). */
export const PRIVACY_SECTIONS: readonly string[] = [
  "Company information",
  "Information we collect",
  "How we use information",
  "How we share information",
  "Security and retention",
  "Your rights and choices",
  "Contact us",
  "Changes to this policy",
];

export const TERMS_SECTIONS: readonly string[] = [
  "Acceptance of terms",
  "Service description",
  "User obligations",
  "Contractor relationships",
  "Fees",
  "Limitation of liability",
  "Call recording",
  "Dispute resolution",
  "Termination",
  "Governing law",
  "Contact",
];
