// Generated from server/src/pages/props.rs by `make types`: do not edit.
// The props the server renders each page with (and the catalogue types inside them).

/** A lucide icon as data: a list of [tag, attributes] SVG children. */
export type IconNode = ReadonlyArray<readonly [string, Readonly<Record<string, string | number>>]>;

export type AdminSection = "funnel" | "leads" | "account-requests" | "applications" | "suppressions" | "campaigns" | "data-requests" | "health" | "audit";

export type AdminFrame = { brand: string, staffEmail: string, 
/**
 * The session's CSRF token: a hidden `csrf` field in every form that changes something.
 */
csrf: string, section: AdminSection, };

export type AuditRow = { id: string, 
/**
 * "2026-11-22 13:45 UTC".
 */
at: string, staff: string | null, action: string, target: string | null, 
/**
 * Where the target can be seen, when it is a page of the console.
 */
targetHref: string | null, ip: string | null, detail: string | null, };

export type AdminAuditProps = { frame: AdminFrame, entries: Array<AuditRow>, 
/**
 * The next (older) page, when there is one.
 */
olderHref: string | null, };

export type CampaignForm = { 
/**
 * None: a new campaign.
 */
id: number | null, name: string, status: string, payouts: string, paymentTerms: string, geos: string, promoAllowed: string, cap: string, inbound: boolean, transfer: boolean, seconds: string, hours: string, notes: string, };

export type CampaignHistoryRow = { at: string, by: string | null, 
/**
 * The form's label of the field.
 */
field: string, from: string | null, to: string | null, };

export type CampaignRow = { id: number, name: string, 
/**
 * LIVE, paused or ended.
 */
status: string, payouts: string, paymentTerms: string, geos: string, changed: string, changedBy: string | null, };

export type ImportLine = { line: number, name: string, 
/**
 * "Added", "Unchanged" or "Changed: payouts, geos".
 */
what: string, };

export type AdminCampaignsProps = { frame: AdminFrame, rows: Array<CampaignRow>, 
/**
 * The name searched for, as typed.
 */
search: string, 
/**
 * The status the list is filtered by ("" for all).
 */
status: string, statuses: Array<string>, paymentTerms: Array<string>, notice: string | null, noticeIsError: boolean, 
/**
 * The form: the campaign being changed, or a new one.
 */
form: CampaignForm, 
/**
 * The changed campaign's history, newest first.
 */
history: Array<CampaignHistoryRow>, 
/**
 * The CSV pasted for an import, shown again with its preview or its refusal.
 */
importText: string, 
/**
 * Why the import was refused (its line number first).
 */
importError: string | null, 
/**
 * What each line of the import would do, before it is confirmed.
 */
importPreview: Array<ImportLine>, };

export type PersonRecordRow = { href: string, received: string, 
/**
 * "Lead: Heating & cooling", "Account request", "Campaign application".
 */
kind: string, name: string, 
/**
 * "Erased 2026-11-22 08:45 EST (consent record kept)", or a submission's status.
 */
state: string, };

export type AdminDataRequestsProps = { frame: AdminFrame, 
/**
 * The phone number or e-mail address as typed.
 */
query: string, notice: string | null, noticeIsError: boolean, 
/**
 * A search was made (so an empty result means nothing is stored).
 */
searched: boolean, records: Array<PersonRecordRow>, 
/**
 * There is something left to erase or delete.
 */
canErase: boolean, };

export type FunnelDay = { 
/**
 * YYYY-MM-DD, in the business's time zone.
 */
date: string, 
/**
 * Leads of each of `services` (same order), then of `sources`.
 */
byService: Array<number>, bySource: Array<number>, leads: number, 
/**
 * Delivered, the last notification within a minute of arrival.
 */
fast: number, suppressed: number, erased: number, };

export type FunnelPeriod = { days: number, href: string, current: boolean, };

export type FunnelSeries = { label: string, total: number, };

export type SlowDeliveryRow = { href: string, service: string, channel: string, 
/**
 * In the business's time zone.
 */
received: string, 
/**
 * "4 min", "12.5 s".
 */
took: string, };

export type AdminFunnelProps = { frame: AdminFrame, periods: Array<FunnelPeriod>, days: number, 
/**
 * The first and last day shown, YYYY-MM-DD.
 */
from: string, to: string, timeZone: string, leads: number, delivered: number, fast: number, 
/**
 * `fast` of `leads`, "87%" ("none" without leads).
 */
fastShare: string, suppressed: number, erased: number, 
/**
 * The busiest services, then "Other" when there are more.
 */
services: Array<FunnelSeries>, 
/**
 * The busiest sources, then "Other" when there are more.
 */
sources: Array<FunnelSeries>, 
/**
 * Every day of the period, oldest first.
 */
rows: Array<FunnelDay>, slowest: Array<SlowDeliveryRow>, };

export type HealthFigure = { label: string, value: string, 
/**
 * Marks a figure that wants attention (failed notifications, an old backlog).
 */
alert: boolean, };

export type HealthGroup = { title: string, 
/**
 * Where the figures come from, in a sentence.
 */
note: string, figures: Array<HealthFigure>, };

export type AdminHealthProps = { frame: AdminFrame, groups: Array<HealthGroup>, 
/**
 * When the figures were read ("2026-11-22 13:45 UTC").
 */
readAt: string, };

export type AttemptView = { channel: string, at: string, outcome: string, error: string | null, };

export type Labeled = { label: string, value: string, };

export type ConsentView = { 
/**
 * The exact wording the visitor was shown, as stored.
 */
text: string, sha256: string, certUrl: string | null, certToken: string | null, pingUrl: string | null, 
/**
 * "2026-11-22T13:45:07.123Z".
 */
receivedUtc: string, 
/**
 * In the business's time zone, with its name.
 */
receivedLocal: string, ip: string | null, userAgent: string | null, pageUrl: string | null, referrer: string | null, utm: Array<Labeled>, };

export type DeliveryView = { id: string, channel: string, status: string, attempts: string, lastError: string | null, 
/**
 * When it is next tried (pending) or was delivered.
 */
when: string, canRetry: boolean, };

export type AdminLeadProps = { frame: AdminFrame, id: string, service: string, name: string, phone: string, phoneE164: string, telHref: string, zip: string, 
/**
 * The further fields of the lead, each with its label (`LEAD_FIELDS` with `console:
 * Show::Line`, `store/lead_fields.rs`), those with a value.
 */
details: Array<Labeled>, status: string, 
/**
 * When a data request erased it down to its consent record.
 */
erased: string | null, 
/**
 * Its number is on the do-not-call list now.
 */
suppressedNow: boolean, consent: ConsentView, deliveries: Array<DeliveryView>, attempts: Array<AttemptView>, 
/**
 * What the last action did ("The e-mail will be sent again now.").
 */
notice: string | null, };

export type LeadFilterForm = { service: string, status: string, phone: string, name: string, 
/**
 * YYYY-MM-DD, in the business's time zone.
 */
from: string, to: string, };

export type LeadListRow = { id: string, href: string, 
/**
 * In the business's time zone: "2026-11-22 08:45 EST".
 */
received: string, service: string, name: string, 
/**
 * "(412) 555-0134".
 */
phone: string, telHref: string, zip: string, status: string, };

export type ServiceOption = { slug: string, name: string, };

export type AdminLeadsProps = { frame: AdminFrame, filter: LeadFilterForm, services: Array<ServiceOption>, statuses: Array<string>, rows: Array<LeadListRow>, 
/**
 * Why the filter matched nothing it could search (a phone that is not a US number, …).
 */
notice: string | null, nextHref: string | null, 
/**
 * The first page with the same filters, when this is a later one.
 */
firstHref: string | null, 
/**
 * The CSV export of the same filters.
 */
exportHref: string, 
/**
 * The business's time zone, as the times are shown.
 */
timeZone: string, };

export type AdminLoginProps = { brand: string, 
/**
 * The login form's own CSRF token (a cookie holds its twin).
 */
csrf: string, 
/**
 * The address typed before (never the password).
 */
email: string, 
/**
 * Where to go after signing in (a console path).
 */
next: string, error: string | null, };

export type AdminMessageProps = { frame: AdminFrame | null, title: string, message: string, };

export type AdminSubmissionProps = { frame: AdminFrame, id: string, 
/**
 * "Account request" or "Campaign application".
 */
kindLabel: string, 
/**
 * The list it belongs to.
 */
listHref: string, received: string, email: string, phone: string, 
/**
 * The form's fields, in the order stored.
 */
fields: Array<Labeled>, 
/**
 * Where it came from: IP, browser, page.
 */
context: Array<Labeled>, status: string, statuses: Array<string>, note: string, notice: string | null, noticeIsError: boolean, };

export type SubmissionListRow = { id: string, href: string, received: string, 
/**
 * The person, as the form gave their name.
 */
name: string, 
/**
 * Their company, when the form asked for one.
 */
company: string | null, email: string, phone: string, status: string, };

export type AdminSubmissionsProps = { frame: AdminFrame, 
/**
 * "Account requests" or "Applications".
 */
title: string, 
/**
 * This list's path ("/admin/account-requests").
 */
path: string, 
/**
 * The status filtered by, or "".
 */
status: string, statuses: Array<string>, rows: Array<SubmissionListRow>, notice: string | null, nextHref: string | null, firstHref: string | null, 
/**
 * The CSV export of the same filter, once there is one.
 */
exportHref: string | null, };

export type SuppressionRow = { 
/**
 * "(412) 555-0134".
 */
phone: string, phoneE164: string, reason: string, added: string, addedBy: string | null, };

export type AdminSuppressionsProps = { frame: AdminFrame, rows: Array<SuppressionRow>, 
/**
 * The number searched for, as typed.
 */
search: string, 
/**
 * What the last action did, or why it could not.
 */
notice: string | null, 
/**
 * The notice reports a refusal (shown as an error).
 */
noticeIsError: boolean, 
/**
 * The add form's values, when it is shown again after a refusal.
 */
phone: string, reason: string, 
/**
 * The next (older) page, when there is one.
 */
nextHref: string | null, 
/**
 * The first page, when this is a later one.
 */
firstHref: string | null, };

export type FormError = { field: string, message: string, };

export type FormValues = { 
/**
 * Each field of one text, by name.
 */
text: Record<string, string>, 
/**
 * Each field of several texts (checkboxes sharing a name), by name.
 */
lists: Record<string, string[]>, };

export type ServiceLink = { name: string, slug: string, icon: string, };

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

export type CallbackRequestProps = { site: SiteInfo, icons: Record<string, IconNode>, 
/**
 * The service the post named; none when it named none we have (the page then offers
 * no form, only the way home).
 */
service: ServiceLink | null, 
/**
 * The number to call about it: ten digits.
 */
phone: string, 
/**
 * The TCPA consent wording beside the form's checkbox.
 */
consentText: string, 
/**
 * What the visitor had typed.
 */
values: FormValues, error: FormError, };

export type CallbackRequestedProps = { site: SiteInfo, icons: Record<string, IconNode>, 
/**
 * The service asked about; none when the address names none we have.
 */
service: ServiceLink | null, 
/**
 * The number to call about it: ten digits.
 */
phone: string, };

export type CampaignAppliedProps = { site: SiteInfo, icons: Record<string, IconNode>, };

export type CampaignApplyProps = { site: SiteInfo, icons: Record<string, IconNode>, 
/**
 * The live campaigns' names, in catalogue order.
 */
campaigns: Array<string>, 
/**
 * What the form holds: the campaign the address names, or what a refused post sent.
 */
values: FormValues, 
/**
 * A refused post's error.
 */
error: FormError | null, 
/**
 * The campaign the address names when it is paused or ended: no longer accepting
 * applications.
 */
closed: string | null, };

export type Campaign = { campaign: string, payouts: string, status: string, notes: string, cap: string, inbound: boolean, transfer: boolean, seconds: number, hours: string, geos: string, paymentTerms: string, promoAllowed?: string, };

export type CampaignsProps = { site: SiteInfo, icons: Record<string, IconNode>, campaigns: Array<Campaign>, 
/**
 * The service catalogue's names and slugs, for the footer's service links.
 */
services: Array<ServiceLink>, };

export type HomeProps = { site: SiteInfo, 
/**
 * Icons this page draws inline, by lucide name.
 */
icons: Record<string, IconNode>, 
/**
 * The SVG sprite file (an immutable asset) with the services' icons and the icons of the
 * sections below the first screen: symbols `i-<icon>` for `<use>`, views `v-<icon>` for `<img>`.
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
certification: boolean, 
/**
 * The campaign catalogue as JSON (an immutable asset), for the affiliate dashboard's
 * Available Campaigns modal.
 */
campaignsUrl: string, };

export type LegalDocument = "privacy" | "terms";

export type LegalPageProps = { site: SiteInfo, icons: Record<string, IconNode>, document: LegalDocument, 
/**
 * The text as HTML, rendered from its content file (sections as h2).
 */
html: string, };

export type NotFoundProps = { site: SiteInfo, icons: Record<string, IconNode>, };

export type AccountType = "homeowner" | "call-buyer" | "affiliate";

export type RegisterProps = { site: SiteInfo, icons: Record<string, IconNode>, 
/**
 * The type whose form the page shows; none on /register, which shows the choice.
 */
accountType: AccountType | null, 
/**
 * What the visitor typed, when a form post without JavaScript is answered with an error
 * (empty on the pages themselves).
 */
values: FormValues, 
/**
 * That answer's error.
 */
error: FormError | null, };

export type RegisterThanksProps = { site: SiteInfo, icons: Record<string, IconNode>, 
/**
 * The type asked for; none when the address names no type.
 */
accountType: AccountType | null, };

export type Feature = { title: string, description: string, icon: string, };

export type SampleProject = { issue: string, location: string, urgency: string, };

export type Service = { name: string, slug: string, title: string, subtitle: string, description: string, problemTitle: string, problemDescription: string, solutionTitle: string, solutionDescription: string, urgentMessage: string, icon: string, color: string, imageUrl: string, emergencyAvailable: boolean, warrantyYears: number, urgentScenarios: Array<string>, features: Array<Feature>, sampleProject: SampleProject, };

export type Tracking = { 
/**
 * The TrustedForm consent certificate script runs on the page.
 */
trustedform: boolean, 
/**
 * The ad pixel's id when the pixel is on.
 */
pixelId: string | null, };

export type ServiceProps = { site: SiteInfo, icons: Record<string, IconNode>, service: Service, 
/**
 * The number to call for this service: ten digits.
 */
phone: string, 
/**
 * The TCPA consent wording beside the callback form's checkbox.
 */
consentText: string, tracking: Tracking, };

export type PageProps = { "page": "home" } & HomeProps | { "page": "campaigns" } & CampaignsProps | { "page": "service" } & ServiceProps | { "page": "legal" } & LegalPageProps | { "page": "register" } & RegisterProps | { "page": "register-thanks" } & RegisterThanksProps | { "page": "campaign-apply" } & CampaignApplyProps | { "page": "campaign-applied" } & CampaignAppliedProps | { "page": "callback-request" } & CallbackRequestProps | { "page": "callback-requested" } & CallbackRequestedProps | { "page": "not-found" } & NotFoundProps | { "page": "admin-login" } & AdminLoginProps | { "page": "admin-message" } & AdminMessageProps | { "page": "admin-audit" } & AdminAuditProps | { "page": "admin-leads" } & AdminLeadsProps | { "page": "admin-lead" } & AdminLeadProps | { "page": "admin-suppressions" } & AdminSuppressionsProps | { "page": "admin-campaigns" } & AdminCampaignsProps | { "page": "admin-submissions" } & AdminSubmissionsProps | { "page": "admin-submission" } & AdminSubmissionProps | { "page": "admin-data-requests" } & AdminDataRequestsProps | { "page": "admin-health" } & AdminHealthProps | { "page": "admin-funnel" } & AdminFunnelProps;
