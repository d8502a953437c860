// The campaign application's rules against catalogue/cases/campaign-applications.json, the
// vectors the server's validator passes too (server/tests/it/api/campaign_applications.rs), and its
// mail draft.

import { describe, expect, it } from "vitest";
import campaignsFile from "../../../catalogue/campaigns.json";
import casesFile from "../../../catalogue/cases/campaign-applications.json";
import { MONTHLY_VOLUMES } from "../../lib/options";
import { REGISTRATION_FIELDS } from "../accounts/registration";
import {
  type Application,
  type ApplicationValues,
  applicationDate,
  applicationPayload,
  applyHref,
  EMPTY_APPLICATION,
  MESSAGES,
  mailBody,
  mailSubject,
  mailtoHref,
  normaliseWebsite,
  postApplication,
  validateApplication,
} from "./campaignApplication";

interface Vector {
  name: string;
  body: Record<string, unknown>;
  error: string | null;
  application?: Application;
}
const vectors = casesFile.cases as Vector[];
const live = campaignsFile.filter((c) => c.status === "LIVE").map((c) => c.campaign);

const TEXT_FIELDS = [
  "firstName",
  "lastName",
  "email",
  "phone",
  "company",
  "website",
  "experience",
  "monthlyVolume",
  "additionalInfo",
] as const;

/** The vector's body as the form holds it, or why the form cannot send it. */
function formValues(body: Record<string, unknown>): ApplicationValues | string {
  const values: ApplicationValues = { ...EMPTY_APPLICATION };
  for (const field of TEXT_FIELDS) {
    const v = body[field];
    if (v === undefined) continue;
    if (typeof v !== "string") return `${field} is ${JSON.stringify(v)}: the form sends text, so only the server meets this`;
    values[field] = v;
  }
  const campaigns = body.selectedCampaigns;
  if (campaigns !== undefined) {
    if (!Array.isArray(campaigns) || !campaigns.every((c) => typeof c === "string")) {
      return "selectedCampaigns is not a list of names: the form always sends one, so only the server meets this";
    }
    values.selectedCampaigns = campaigns;
  }
  return values;
}

describe("catalogue/cases/campaign-applications.json", () => {
  it("covers each of the nine rules and every campaign it names is live", () => {
    for (const message of [
      MESSAGES.firstName,
      MESSAGES.lastName,
      MESSAGES.email,
      MESSAGES.emailInvalid,
      MESSAGES.phone,
      MESSAGES.company,
      MESSAGES.experience,
      MESSAGES.monthlyVolume,
      MESSAGES.campaigns,
    ]) {
      expect(
        vectors.some((v) => v.error === message),
        message,
      ).toBe(true);
    }
    for (const v of vectors.filter((v) => v.error === null)) {
      for (const name of v.application?.selectedCampaigns ?? []) expect(live).toContain(name);
    }
  });

  const skipped: string[] = [];
  for (const vector of vectors) {
    const values = formValues(vector.body);
    if (typeof values === "string") {
      skipped.push(vector.name);
      it.skip(`${vector.name} (${values})`, () => {});
      continue;
    }
    it(vector.name, () => {
      const result = validateApplication(values, live);
      if (vector.error === null) {
        expect(result).toEqual({ ok: true, application: vector.application });
      } else {
        expect(result).toEqual({ ok: false, error: vector.error });
      }
    });
  }

  it("leaves to the server only what the form cannot send", () => {
    expect(skipped.length).toBeLessThan(8);
  });
});

describe("normaliseWebsite", () => {
  it("keeps http(s) addresses and gives a bare host https://", () => {
    expect(normaliseWebsite("https://a.example")).toBe("https://a.example");
    expect(normaliseWebsite("HTTP://a.example/x?y#z")).toBe("HTTP://a.example/x?y#z");
    expect(normaliseWebsite("a.example")).toBe("https://a.example");
    expect(normaliseWebsite("bücher.example")).toBe("https://bücher.example");
  });
  it("refuses what is not a website", () => {
    for (const bad of ["", "mailto:a@b.example", "https://a", "a..example", "https://a.example:x", "a.example\u2028", "data:text/html,x"]) {
      expect(normaliseWebsite(bad), bad).toBeNull();
    }
  });
});

describe("the monthly volume", () => {
  it("is one list, spelt one way, in the registration forms and the campaign application", () => {
    const registration = REGISTRATION_FIELDS.affiliate.find((f) => f.name === "monthlyVolume")?.options;
    expect(registration).toBe(MONTHLY_VOLUMES);
    expect(MONTHLY_VOLUMES.map((o) => o.value)).toEqual(["1-50", "50-100", "100-500", "500-1000", "1000+"]);
    expect(MONTHLY_VOLUMES.map((o) => o.label)).toEqual(["1-50 leads", "50-100 leads", "100-500 leads", "500-1000 leads", "1000+ leads"]);
  });
});

describe("the mail draft", () => {
  const application: Application = {
    firstName: "Jane",
    lastName: "Okafor",
    email: "jane@leadflow.example",
    phone: "(412) 555-0188",
    company: "LeadFlow Media",
    website: "",
    experience: "intermediate",
    monthlyVolume: "500-1000",
    selectedCampaigns: ["Roofing Inbound Calls", "HVAC Repair Transfers"],
    additionalInfo: "",
  };
  const now = new Date(2025, 2, 14, 15, 4);

  it("has the spec's subject", () => {
    expect(mailSubject(application)).toBe("New Campaign Application - Jane Okafor");
  });

  it("lists everything, with 'Not provided', 'None provided', the date and the source", () => {
    const body = mailBody(application, now);
    for (const line of [
      "Name: Jane Okafor",
      "Email: jane@leadflow.example",
      "Phone: (412) 555-0188",
      "Company: LeadFlow Media",
      "Website: Not provided",
      "Experience: Intermediate (6 months - 2 years)",
      "Expected monthly volume: 500-1000 leads",
      "- Roofing Inbound Calls",
      "- HVAC Repair Transfers",
      "None provided",
      "Application date: March 14, 2025 at 3:04 PM",
      "Source: Campaign Portal Application",
    ]) {
      expect(body.split("\n")).toContain(line);
    }
    const filled = mailBody({ ...application, website: "https://leadflow.example", additionalInfo: "Mostly search." }, now);
    expect(filled).toContain("Website: https://leadflow.example");
    expect(filled).toContain("ADDITIONAL INFORMATION\nMostly search.");
  });

  it("opens a draft to the info address with both encoded", () => {
    const href = mailtoHref("info@ringready.example", application, now);
    const url = new URL(href);
    expect(url.protocol).toBe("mailto:");
    expect(url.pathname).toBe("info@ringready.example");
    expect(url.searchParams.get("subject")).toBe("New Campaign Application - Jane Okafor");
    expect(url.searchParams.get("body")).toBe(mailBody(application, now).replace(/\n/g, "\r\n"));
    expect(href).not.toContain("+");
  });

  it("writes dates on a 12-hour clock", () => {
    expect(applicationDate(new Date(2025, 0, 1, 0, 5))).toBe("January 1, 2025 at 12:05 AM");
    expect(applicationDate(new Date(2025, 11, 31, 12, 0))).toBe("December 31, 2025 at 12:00 PM");
  });
});

describe("the post to the server", () => {
  it("sends JSON and reports whether it was taken, never throwing", async () => {
    const calls: Array<{ url: string; init: RequestInit | undefined }> = [];
    const ok = await postApplication({ a: 1 }, async (url, init) => {
      calls.push({ url: String(url), init });
      return new Response("{}", { status: 201 });
    });
    expect(ok).toBe(true);
    expect(calls[0].url).toBe("/api/campaign-applications");
    expect(calls[0].init?.headers).toEqual({ "Content-Type": "application/json" });
    expect(await postApplication({}, async () => new Response("{}", { status: 503 }))).toBe(false);
    expect(
      await postApplication({}, async () => {
        throw new TypeError("Failed to fetch");
      }),
    ).toBe(false);
  });

  it("carries the honeypot under its reserved name", () => {
    const body = applicationPayload({ ...EMPTY_APPLICATION, website: "https://a.example" }, "");
    expect(body.website).toBe("https://a.example");
    expect(body.hp_website).toBe("");
  });

  it("links each campaign to the apply page", () => {
    expect(applyHref("Solar Transfers - Utility Bill $150+")).toBe(
      "/campaigns/apply?campaign=Solar%20Transfers%20-%20Utility%20Bill%20%24150%2B",
    );
  });
});
