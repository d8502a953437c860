// The account forms against catalogue/cases/account-requests.json, the vectors the server's
// validation passes (server/tests/it/api/account_requests.rs). Sign-up and the registration request form
// run their own rules here (validateSignup, validateRequest); the header's registration
// modal has only the browser's checks, read from its controls' attributes. A vector the
// browser cannot decide is skipped with the reason named below; any other disagreement fails.

import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import vectorFile from "../../../catalogue/cases/account-requests.json";
import { ACCOUNT_TYPES, type AccountType, isAccountType } from "./accounts";
import { RegistrationFields } from "./RegistrationFields";
import { REGISTRATION_FIELDS, registrationSubject, validateRequest } from "./registration";
import { signupSubject, validateSignup } from "./signup";

interface Vector {
  name: string;
  body: Record<string, unknown>;
  error: string | null;
  field?: string;
  subject?: string;
}
const vectors: Vector[] = vectorFile.cases;

/** Why the browser cannot decide a vector, or null when it can. */
function serverOnly(v: Vector): string | null {
  const { source, accountType } = v.body;
  if (!["signup", "registration", "request"].includes(String(source)) || typeof source !== "string")
    return "the form names its own source; only a hand-made request names another";
  if (!isAccountType(accountType)) return "the form sends one of its three types; only a hand-made request sends another";
  if ("password" in v.body || "confirmPassword" in v.body) return "no form sends a password: they stay in the browser";
  if (Object.values(v.body).some((value) => typeof value !== "string"))
    return "forms send text; only a hand-made request sends other JSON types";
  return null;
}

const PASSWORDS = { password: "correct horse", confirmPassword: "correct horse" };
const text = (body: Record<string, unknown>): Record<string, string> =>
  Object.fromEntries(Object.entries(body).map(([k, v]) => [k, String(v)]));

describe("the shared vectors", () => {
  it("cover every source and type, accepted and refused", () => {
    for (const source of ["signup", "registration", "request"]) {
      for (const type of ACCOUNT_TYPES) {
        expect(
          vectors.some((v) => v.body.source === source && v.body.accountType === type && v.error === null),
          `${source} ${type}`,
        ).toBe(true);
      }
      expect(vectors.filter((v) => v.body.source === source && v.error !== null).length).toBeGreaterThanOrEqual(10);
    }
  });
});

describe("hand-made requests", () => {
  for (const v of vectors.filter((c) => !["signup", "registration", "request"].includes(String(c.body.source)))) {
    it.skip(`${v.name} (server only: ${serverOnly(v)})`, () => {});
  }
});

describe("sign-up (validateSignup, with a valid password pair)", () => {
  for (const v of vectors.filter((c) => c.body.source === "signup")) {
    const reason = serverOnly(v);
    if (reason) {
      it.skip(`${v.name} (server only: ${reason})`, () => {});
      continue;
    }
    it(v.name, () => {
      const type = v.body.accountType as AccountType;
      const values = { ...text(v.body), ...PASSWORDS };
      const invalid = validateSignup(type, values);
      expect(invalid?.message ?? null).toBe(v.error);
      if (v.field) expect(invalid?.field).toBe(v.field);
      if (v.subject) expect(signupSubject(type, values)).toBe(v.subject);
    });
  }
});

describe("the registration request form (validateRequest)", () => {
  for (const v of vectors.filter((c) => c.body.source === "request")) {
    const reason = serverOnly(v);
    if (reason) {
      it.skip(`${v.name} (server only: ${reason})`, () => {});
      continue;
    }
    it(v.name, () => {
      const type = v.body.accountType as AccountType;
      const invalid = validateRequest(type, text(v.body));
      expect(invalid?.message ?? null).toBe(v.error);
      if (v.field) expect(invalid?.field).toBe(v.field);
      if (v.subject) expect(registrationSubject(type, text(v.body))).toBe(v.subject);
    });
  }
});

interface Control {
  tag: "input" | "select" | "textarea";
  type: string;
  required: boolean;
  maxLength: number | null;
  options: string[];
}

/** The header modal's controls for a type, read from the server HTML of its fields. */
function controls(type: AccountType): Map<string, Control> {
  const html = renderToStaticMarkup(createElement(RegistrationFields, { type, idPrefix: "r", checks: "native" }));
  const found = new Map<string, Control>();
  for (const [, tag, attributes, inner] of html.matchAll(/<(input|select|textarea)\b([^>]*)>(?:([\s\S]*?)<\/\1>)?/g)) {
    const attribute = (name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(attributes)?.[1];
    const name = attribute("name");
    if (!name) continue;
    const max = attribute("maxLength");
    found.set(name, {
      tag: tag as Control["tag"],
      type: attribute("type") ?? tag,
      required: /\srequired(=""|\s|$)/.test(attributes),
      maxLength: max === undefined ? null : Number(max),
      options: [...(inner ?? "").matchAll(/<option value="([^"]*)"/g)].map((m) => m[1]).filter(Boolean),
    });
  }
  return found;
}

/** The HTML standard's valid e-mail address: what the browser's email type checks. */
const HTML_EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** Whether the browser would send this body from the modal, or why it could not come from it. */
function browser(type: AccountType, body: Record<string, string>): { sends: boolean } | { cannot: string } {
  for (const [name, control] of controls(type)) {
    // Value sanitization: email and URL inputs drop line breaks and surrounding white space.
    const raw = body[name] ?? "";
    const value = control.type === "email" || control.type === "url" ? raw.replace(/[\r\n]/g, "").trim() : raw;
    if (control.tag === "select" && value !== "" && !control.options.includes(value))
      return { cannot: `${name}: a select sends one of its options` };
    if (control.maxLength !== null && Array.from(value).length > control.maxLength)
      return { cannot: `${name}: maxlength stops the typing` };
    if (control.required && value === "") return { sends: false };
    if (control.type === "email" && !HTML_EMAIL.test(value)) return { sends: false };
    if (control.type === "url") {
      try {
        new URL(value);
      } catch {
        return { sends: false };
      }
    }
  }
  return { sends: true };
}

/** What the server refuses although the browser sends it, by vector. */
const SERVER_STRICTER: Readonly<Record<string, string>> = {
  "registration: website with another scheme (the browser takes it; we keep only http(s))": "we store http(s) addresses only",
  "registration: website javascript: URL": "we store http(s) addresses only",
  "registration: service areas only white space (the browser's required check takes it)":
    "white space passes the browser's required check; staff need text",
};

describe("the header registration modal (the browser's own checks)", () => {
  it("has every field required, the spec's input types, option lists and 3-row text areas", () => {
    for (const type of ACCOUNT_TYPES) {
      const found = controls(type);
      expect([...found.keys()]).toEqual(REGISTRATION_FIELDS[type].map((f) => f.name));
      for (const control of found.values()) expect(control.required).toBe(true);
      expect(found.get("email")?.type).toBe("email");
      expect(found.get("phone")?.type).toBe("tel");
    }
    expect(controls("affiliate").get("website")?.type).toBe("url");
    expect(controls("homeowner").get("propertyType")?.options).toEqual([
      "single-family",
      "condo",
      "townhouse",
      "apartment",
      "multi-family",
      "commercial",
    ]);
    expect(controls("call-buyer").get("businessType")?.options).toEqual([
      "hvac",
      "roofing",
      "plumbing",
      "flooring",
      "pest-control",
      "siding",
      "general",
      "other",
    ]);
    expect(controls("call-buyer").get("monthlyBudget")?.options).toEqual(["1000-2500", "2500-5000", "5000-10000", "10000-25000", "25000+"]);
    expect(controls("affiliate").get("monthlyVolume")?.options).toEqual(["1-50", "50-100", "100-500", "500-1000", "1000+"]);
    const html = renderToStaticMarkup(createElement(RegistrationFields, { type: "homeowner", idPrefix: "r", checks: "native" }));
    expect(html).toMatch(/<textarea[^>]*rows="3"/);
    expect(html).toContain('<option value="" selected="">');
  });

  for (const v of vectors.filter((c) => c.body.source === "registration")) {
    const reason = serverOnly(v);
    if (reason) {
      it.skip(`${v.name} (server only: ${reason})`, () => {});
      continue;
    }
    const type = v.body.accountType as AccountType;
    const verdict = browser(type, text(v.body));
    if ("cannot" in verdict) {
      it.skip(`${v.name} (server only: ${verdict.cannot})`, () => {});
      continue;
    }
    if (SERVER_STRICTER[v.name]) {
      it(`${v.name} (the browser sends it; the server refuses: ${SERVER_STRICTER[v.name]})`, () => {
        expect(verdict.sends).toBe(true);
        expect(v.error).not.toBeNull();
      });
      continue;
    }
    it(v.name, () => {
      expect(verdict.sends).toBe(v.error === null);
      if (v.subject) expect(registrationSubject(type, text(v.body))).toBe(v.subject);
    });
  }
});
