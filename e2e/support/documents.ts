import { BROKEN_URL } from "./env";

// Every kind of document the server renders, in every state a visitor can meet, for the
// whole-site checks (e2e/html-validity.spec.ts: the Nu Html Checker; e2e/axe-all-rules.spec.ts:
// axe with every rule, best practices included). A new page or a new server-rendered answer
// adds its line here: /register and its answers, /campaigns/apply and its answers, the
// thank-you pages, the staff console's pages.

export interface ServerDocument {
  /** A short name: the file the HTML is saved as, and how failures are reported. */
  name: string;
  /** The path on the default server, or a full URL. */
  url: string;
  /** A plain form post (the no-JavaScript path) with these fields; otherwise a GET. */
  form?: Record<string, string>;
  /** The status the server answers with. */
  status: number;
  /** Whether the page carries islands (the axe check waits for them to hydrate). */
  hydrates: boolean;
  /** Left out of the axe check (with the reason): e.g. an answer a browser never shows as a page. */
  skipAxe?: string;
}

/** A callback form post as the no-JavaScript form sends it, with `fields` changed. */
function callbackPost(fields: Record<string, string>): Record<string, string> {
  return {
    serviceSlug: "plumbing",
    fullName: "Ruth Abernathy",
    phone: "(412) 555-0199",
    zipCode: "15213",
    consent: "true",
    tcpa_text: "a wording the page never showed",
    hp_website: "",
    ...fields,
  };
}

/** A campaign application as the apply page posts it, with `fields` changed. */
function applicationPost(fields: Record<string, string>): Record<string, string> {
  return {
    firstName: "Jane",
    lastName: "Okafor",
    email: "jane@leadflow.example",
    phone: "(412) 555-0188",
    company: "LeadFlow Media",
    website: "",
    experience: "intermediate",
    monthlyVolume: "500-1000",
    selectedCampaigns: "Roofing Inbound Calls",
    additionalInfo: "",
    hp_website: "",
    ...fields,
  };
}

/** A contractor's registration request as /register/contractor posts it, with `fields` changed. */
function registrationPost(fields: Record<string, string>): Record<string, string> {
  return {
    source: "request",
    accountType: "call-buyer",
    firstName: "Luis",
    lastName: "Ortega",
    email: "luis@ortegaroofing.example",
    phone: "(412) 555-0134",
    companyName: "Ortega Roofing LLC",
    businessType: "roofing",
    monthlyBudget: "2500-5000",
    serviceAreas: "Erie County, PA",
    hp_website: "",
    ...fields,
  };
}

export const SERVER_DOCUMENTS: ServerDocument[] = [
  { name: "home", url: "/", status: 200, hydrates: true },
  // hvac: emergency service with its own number; closets: neither.
  { name: "service-hvac", url: "/hvac", status: 200, hydrates: true },
  { name: "service-closets", url: "/closets", status: 200, hydrates: true },
  { name: "campaigns", url: "/campaigns", status: 200, hydrates: true },
  { name: "privacy", url: "/privacy", status: 200, hydrates: false },
  { name: "terms", url: "/terms", status: 200, hydrates: false },
  { name: "not-found", url: "/no-such-service", status: 404, hydrates: false },
  // The no-JavaScript callback answers: the thank-you page, and the form again with its error.
  { name: "callback-requested", url: "/callback-requested?service=hvac", status: 200, hydrates: false },
  { name: "callback-requested-no-service", url: "/callback-requested", status: 200, hydrates: false },
  {
    name: "callback-refused-phone",
    url: "/.netlify/functions/submit-lead",
    form: callbackPost({ phone: "12", fullName: "Ruth <b>Abernathy</b>" }),
    status: 400,
    hydrates: true,
  },
  {
    name: "callback-refused-unknown-service",
    url: "/.netlify/functions/submit-lead",
    form: callbackPost({ serviceSlug: "no-such-service", fullName: "" }),
    status: 400,
    hydrates: false,
  },
  // The registration request form, and its no-JavaScript answers: the form again with its
  // error (one field's, and an unknown type: the choice again), and the thank-you pages.
  { name: "register", url: "/register", status: 200, hydrates: true },
  { name: "register-contractor", url: "/register/contractor", status: 200, hydrates: true },
  {
    name: "register-refused-phone",
    url: "/api/account-requests",
    form: registrationPost({ phone: "0412", firstName: "<b>Luis</b>" }),
    status: 400,
    hydrates: true,
  },
  {
    name: "register-refused-no-type",
    url: "/api/account-requests",
    form: registrationPost({ accountType: "pilot" }),
    status: 400,
    hydrates: true,
  },
  { name: "register-thanks", url: "/register/thanks?type=contractor", status: 200, hydrates: false },
  { name: "register-thanks-no-type", url: "/register/thanks", status: 200, hydrates: false },
  // The campaign application without JavaScript: the apply page (no campaign chosen, one
  // chosen), its answer to a refused post, and where an accepted one lands.
  { name: "campaign-apply", url: "/campaigns/apply", status: 200, hydrates: false },
  {
    name: "campaign-apply-chosen",
    url: `/campaigns/apply?campaign=${encodeURIComponent("Windows & Doors Transfers")}`,
    status: 200,
    hydrates: false,
  },
  {
    name: "campaign-apply-refused",
    url: "/api/campaign-applications",
    form: applicationPost({ lastName: " ", additionalInfo: "<script>alert(1)</script>" }),
    status: 400,
    hydrates: false,
  },
  { name: "campaign-applied", url: "/campaigns/applied", status: 200, hydrates: false },
  // The staff sign-in page (React's markup rendered once, filled in per visit), and its
  // answer to a form that lost its token (the error banner).
  { name: "admin-sign-in", url: "/admin/login?next=/admin/audit", status: 200, hydrates: false },
  {
    name: "admin-sign-in-expired",
    url: "/admin/login",
    form: { email: "ana@ringready.example", password: "not it", next: "/admin/leads" },
    status: 403,
    hydrates: false,
  },
  // The server-only error page: the broken server (RENDER_TIMEOUT_MS=1) cannot render any page.
  { name: "server-error", url: `${BROKEN_URL}/hvac`, status: 500, hydrates: false },
];
