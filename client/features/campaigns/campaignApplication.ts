// The campaign application (docs/product.md, "The campaign application"), free of React so it can be
// tested alone: its options, the rules in order (the server's twin is
// server/src/applications/validate.rs; both pass catalogue/cases/campaign-applications.json),
// the mailto draft and the post to the server.

import { HONEYPOT_FIELD } from "../../lib/honeypot";
import { MONTHLY_VOLUMES } from "../../lib/options";

/** Where every application is also posted (docs/product.md, "The campaign application"). */
export const APPLICATIONS_URL = "/api/campaign-applications";
/** The no-JavaScript page the 'Apply Now' links lead to before the page is live. */
export const APPLY_PAGE = "/campaigns/apply";
/** The success panel shows 1000 ms after the mail draft opens. */
export const SUCCESS_DELAY_MS = 1000;
export const SOURCE = "Campaign Portal Application";
/** docs/product.md, "The campaign application". */
export const EXCEPTION_MESSAGE = "An error occurred while submitting your application. Please try again.";

export const EXPERIENCE_OPTIONS = [
  { value: "beginner", label: "Beginner (0-6 months)" },
  { value: "intermediate", label: "Intermediate (6 months - 2 years)" },
  { value: "experienced", label: "Experienced (2+ years)" },
  { value: "expert", label: "Expert (5+ years)" },
] as const;

/** Longest value each text field takes (the inputs' maxlength; the server's limits). */
export const MAX_CHARS = {
  firstName: 100,
  lastName: 100,
  email: 254,
  phone: 30,
  company: 200,
  website: 500,
  additionalInfo: 2000,
} as const;

/** The messages, in the order the rules run: the nine of docs/product.md, then ours. */
export const MESSAGES = {
  firstName: "First name is required",
  lastName: "Last name is required",
  email: "Email is required",
  emailInvalid: "Please enter a valid email address",
  phone: "Phone number is required",
  company: "Company name is required",
  experience: "Please select your experience level",
  monthlyVolume: "Please select your expected monthly volume",
  campaigns: "Please select at least one campaign",
  website: "Please enter a valid website address, such as https://example.com",
  campaignUnavailable: "A campaign you selected is no longer accepting applications. Please reload the page and choose again.",
} as const;

/** What the form holds. */
export interface ApplicationValues {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  company: string;
  website: string;
  experience: string;
  monthlyVolume: string;
  selectedCampaigns: string[];
  additionalInfo: string;
}

export const EMPTY_APPLICATION: ApplicationValues = {
  firstName: "",
  lastName: "",
  email: "",
  phone: "",
  company: "",
  website: "",
  experience: "",
  monthlyVolume: "",
  selectedCampaigns: [],
  additionalInfo: "",
};

/** A valid application, trimmed, its website with a scheme, its campaigns once each in the
 * catalogue's order. */
export type Application = ApplicationValues;

type Labelled = "firstName" | "lastName" | "phone" | "company" | "additionalInfo";
const LABELS: Record<Labelled, string> = {
  firstName: "First name",
  lastName: "Last name",
  phone: "Phone number",
  company: "Company name",
  additionalInfo: "Additional information",
};

export const tooLong = (field: Labelled): string => `${LABELS[field]} must be ${MAX_CHARS[field]} characters or fewer`;
export const badCharacters = (field: Labelled): string => `${LABELS[field]} contains characters we cannot accept`;

/** Unicode White_Space: what Rust's str::trim removes (JavaScript's trim() differs on
 * U+FEFF and U+0085), so both sides agree on what "blank" means. */
const WHITE_SPACE = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;

export function trimWhiteSpace(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && WHITE_SPACE.test(text[start])) start++;
  while (end > start && WHITE_SPACE.test(text[end - 1])) end--;
  return text.slice(start, end);
}

/** Characters, as Rust counts them (code points, not UTF-16 units). */
const charCount = (text: string): number => Array.from(text).length;

/** Control characters (Unicode Cc), tab allowed; line breaks too when `multiline`. */
function hasControl(text: string, multiline: boolean): boolean {
  for (const ch of text) {
    const c = ch.codePointAt(0) ?? 0;
    if (ch === "\t" || (multiline && (ch === "\n" || ch === "\r"))) continue;
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return true;
  }
  return false;
}

/** The e-mail rule: "{email}, no spaces" (docs/product.md, "Accounts"). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** JavaScript's \s: what the e-mail pattern and the website rule call white space. */
const JS_SPACE = /[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/;

/** A website as stored: http(s) with a host name; a bare "example.com" gets "https://".
 * Null when it cannot be one: white space or control characters, another scheme, or a host
 * that is not dot-separated labels of letters, digits and hyphens (a port may follow). */
export function normaliseWebsite(text: string): string | null {
  for (const ch of text) {
    const c = ch.codePointAt(0) ?? 0;
    if (JS_SPACE.test(ch) || c < 0x20 || (c >= 0x7f && c <= 0x9f)) return null;
  }
  const scheme = /^[a-zA-Z][a-zA-Z0-9+.-]*:/.exec(text);
  let url = text;
  if (scheme) {
    const name = scheme[0].slice(0, -1).toLowerCase();
    if ((name !== "http" && name !== "https") || !text.slice(scheme[0].length).startsWith("//")) return null;
  } else {
    url = `https://${text}`;
  }
  const authority = url.slice(url.indexOf("//") + 2).split(/[/?#]/)[0];
  const host = authority.replace(/:[0-9]+$/, "");
  const label = (part: string) =>
    part.length > 0 && Array.from(part).every((ch) => /[A-Za-z0-9-]/.test(ch) || (ch.codePointAt(0) ?? 0) > 0x7f);
  const labels = host.split(".");
  return labels.length >= 2 && labels.every(label) ? url : null;
}

export type Checked = { ok: true; application: Application } | { ok: false; error: string };

/** The rules in order; the first that fails is the visitor's message (docs/product.md, "The campaign application").
 * `liveCampaigns`: the names of the campaigns accepting applications, in catalogue order. */
export function validateApplication(values: ApplicationValues, liveCampaigns: readonly string[]): Checked {
  const fail = (error: string): Checked => ({ ok: false, error });

  const required = (field: Labelled, message: string): string | Checked => {
    const text = trimWhiteSpace(values[field]);
    if (!text) return fail(message);
    if (charCount(text) > MAX_CHARS[field]) return fail(tooLong(field));
    if (hasControl(text, false)) return fail(badCharacters(field));
    return text;
  };
  const firstName = required("firstName", MESSAGES.firstName);
  if (typeof firstName !== "string") return firstName;
  const lastName = required("lastName", MESSAGES.lastName);
  if (typeof lastName !== "string") return lastName;

  const email = trimWhiteSpace(values.email);
  if (!email) return fail(MESSAGES.email);
  if (!EMAIL_PATTERN.test(email) || charCount(email) > MAX_CHARS.email || hasControl(email, false)) return fail(MESSAGES.emailInvalid);

  const phone = required("phone", MESSAGES.phone);
  if (typeof phone !== "string") return phone;
  const company = required("company", MESSAGES.company);
  if (typeof company !== "string") return company;

  if (!EXPERIENCE_OPTIONS.some((o) => o.value === values.experience)) return fail(MESSAGES.experience);
  if (!MONTHLY_VOLUMES.some((o) => o.value === values.monthlyVolume)) return fail(MESSAGES.monthlyVolume);
  if (values.selectedCampaigns.length === 0) return fail(MESSAGES.campaigns);

  // Ours, after those nine: the optional website, the campaigns still open, the additional
  // information. (A bad website never hides a missing choice above.)
  let website = trimWhiteSpace(values.website);
  if (website) {
    const normal = charCount(website) <= MAX_CHARS.website ? normaliseWebsite(website) : null;
    if (normal === null) return fail(MESSAGES.website);
    website = normal;
  }
  if (values.selectedCampaigns.some((name) => !liveCampaigns.includes(name))) return fail(MESSAGES.campaignUnavailable);
  const selectedCampaigns = liveCampaigns.filter((name) => values.selectedCampaigns.includes(name));

  const additionalInfo = trimWhiteSpace(values.additionalInfo);
  if (charCount(additionalInfo) > MAX_CHARS.additionalInfo) return fail(tooLong("additionalInfo"));
  if (hasControl(additionalInfo, true)) return fail(badCharacters("additionalInfo"));

  return {
    ok: true,
    application: {
      firstName,
      lastName,
      email,
      phone,
      company,
      website,
      experience: values.experience,
      monthlyVolume: values.monthlyVolume,
      selectedCampaigns,
      additionalInfo,
    },
  };
}

export const experienceLabel = (value: string): string => EXPERIENCE_OPTIONS.find((o) => o.value === value)?.label ?? value;
export const volumeLabel = (value: string): string => MONTHLY_VOLUMES.find((o) => o.value === value)?.label ?? value;

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** "March 14, 2025 at 3:04 PM", in the visitor's local time. */
export function applicationDate(now: Date): string {
  const h = now.getHours();
  const minutes = String(now.getMinutes()).padStart(2, "0");
  return `${MONTHS[now.getMonth()]} ${now.getDate()}, ${now.getFullYear()} at ${h % 12 || 12}:${minutes} ${h < 12 ? "AM" : "PM"}`;
}

/** The draft's subject: 'New Campaign Application - {firstName} {lastName}'. */
export const mailSubject = (a: Pick<Application, "firstName" | "lastName">): string =>
  `New Campaign Application - ${a.firstName} ${a.lastName}`;

/** The draft's body: personal information, experience and volume, the campaigns, the
 * additional information ('None provided'), the website ('Not provided'), the date and source. */
export function mailBody(a: Application, now: Date): string {
  return [
    "New campaign application",
    "",
    "PERSONAL INFORMATION",
    `Name: ${a.firstName} ${a.lastName}`,
    `Email: ${a.email}`,
    `Phone: ${a.phone}`,
    `Company: ${a.company}`,
    `Website: ${a.website || "Not provided"}`,
    "",
    "EXPERIENCE AND VOLUME",
    `Experience: ${experienceLabel(a.experience)}`,
    `Expected monthly volume: ${volumeLabel(a.monthlyVolume)}`,
    "",
    `SELECTED CAMPAIGNS (${a.selectedCampaigns.length})`,
    ...a.selectedCampaigns.map((name) => `- ${name}`),
    "",
    "ADDITIONAL INFORMATION",
    a.additionalInfo || "None provided",
    "",
    `Application date: ${applicationDate(now)}`,
    `Source: ${SOURCE}`,
  ].join("\n");
}

/** The mailto: link that opens the draft to the info address (RFC 6068: line breaks as
 * CRLF, everything percent-encoded). */
export function mailtoHref(to: string, a: Application, now: Date): string {
  const encode = (text: string) => encodeURIComponent(text.replace(/\r?\n/g, "\r\n"));
  return `mailto:${to}?subject=${encode(mailSubject(a))}&body=${encode(mailBody(a, now))}`;
}

/** Hands the draft to the visitor's mail program, as a click on a mailto: link would (run
 * inside the visitor's submit, or the browser may refuse it). */
export function openMailDraft(href: string): void {
  const link = document.createElement("a");
  link.href = href;
  link.rel = "noopener";
  link.click();
}

/** The JSON the server takes (openapi.yaml: CampaignApplication). */
export function applicationPayload(a: Application, honeypot: string): Record<string, unknown> {
  return { ...a, pageUrl: typeof window === "undefined" ? "" : window.location.href, [HONEYPOT_FIELD]: honeypot };
}

/** Posts the application; resolves whatever happens (docs/product.md, "The campaign application"). True when the server took it. */
export async function postApplication(body: Record<string, unknown>, send: typeof fetch = fetch): Promise<boolean> {
  try {
    const response = await send(APPLICATIONS_URL, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      keepalive: true,
    });
    return response.ok;
  } catch {
    return false;
  }
}

/** The apply page's address for a campaign (the 'Apply Now' links' href). */
export const applyHref = (campaign: string): string => `${APPLY_PAGE}?campaign=${encodeURIComponent(campaign)}`;
