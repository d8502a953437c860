// The callback form against catalogue/cases/leads.json, the vectors the server's validation
// passes (server/tests/it/api/submit_lead.rs): what the browser enforces for the same form must agree with
// them. The browser checks little: the form's required and maxlength attributes, and the
// phone rule in lib/phone.ts. Every vector either meets one of those checks or is skipped with
// a reason named below; a vector that fits neither fails.

import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import leadsFile from "../../../catalogue/cases/leads.json";
import { parseUsPhone } from "../../lib/phone";
import { CallbackForm } from "./CallbackForm";

interface LeadVector {
  name: string;
  body: Record<string, unknown>;
  /** The first error message the server answers, or null when it accepts the request. */
  error: string | null;
  /** The number as stored (E.164) when accepted. */
  phone: string | null;
}
const vectors: LeadVector[] = leadsFile.cases;

/** Why the browser cannot decide a vector, by the one field the vector changes. */
const SERVER_ONLY: Readonly<Record<string, string>> = {
  serviceSlug: "the service is a hidden field the page fills in, and only the server knows the catalogue",
  fullName: "the browser asks only that a name be there and fit its maxlength; what makes a valid name is the server's rule",
  phone: "the form sends the phone as text; a value of another JSON type cannot come from it",
  zipCode: "the browser does not check the ZIP's format; the server does",
  consent: "the checkbox sends true or false; a value of another JSON type cannot come from it",
  tcpa_text: "the page sends the wording it shows; only the server knows which wordings are current",
  trustedform_token: "the certification script fills the certificate fields; only the server checks them",
  trustedform_ping: "the certification script fills the certificate fields; only the server checks them",
  trustedform_cert_url: "the certification script fills the certificate fields; only the server checks them",
};
const SEVERAL_FIELDS = "it changes several fields at once: which message comes first is the server's order";

interface Control {
  name: string;
  type: string;
  required: boolean;
  maxLength: number | null;
}

/** The form's controls, read from its server HTML. */
function formControls(): Map<string, Control> {
  const html = renderToStaticMarkup(
    <CallbackForm
      serviceSlug="hvac"
      consentText="I agree to the Terms of Service and Privacy Policy."
      certification={false}
      onLegal={() => {}}
      onSubmitted={() => {}}
    />,
  );
  const controls = new Map<string, Control>();
  for (const [, attributes] of html.matchAll(/<input\b([^>]*)>/g)) {
    const attribute = (name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(attributes)?.[1];
    const name = attribute("name");
    if (name === undefined) continue;
    const maxLength = attribute("maxLength");
    controls.set(name, {
      name,
      type: attribute("type") ?? "text",
      required: /\srequired(=""|\s|\/|$)/.test(attributes),
      maxLength: maxLength === undefined ? null : Number(maxLength),
    });
  }
  return controls;
}

const controls = formControls();
/** The controls a visitor fills in (hidden inputs are filled by the page). */
const visitorControls = [...controls.values()].filter((c) => c.type !== "hidden");
const baseline = vectors[0];

/** The fields whose value differs from the first vector's, a complete accepted request. */
function changedFields(vector: LeadVector): string[] {
  const keys = new Set([...Object.keys(baseline.body), ...Object.keys(vector.body)]);
  return [...keys].filter((k) => JSON.stringify(baseline.body[k]) !== JSON.stringify(vector.body[k]));
}

/** A value the form would send for a control left empty (unchecked, for the consent box). */
const isAbsent = (value: unknown) => value === undefined || value === null || value === "" || value === false;

/** Why the browser would not send `body`, or null when it would. */
function browserRefusal(body: Record<string, unknown>): string | null {
  for (const control of visitorControls) {
    const value = body[control.name];
    if (control.required && isAbsent(value)) return `${control.name} is required`;
    if (control.maxLength !== null && typeof value === "string" && value.length > control.maxLength) {
      return `${control.name} is longer than ${control.maxLength} characters`;
    }
  }
  return null;
}

/** The messages of the phone rule: those of vectors that change only the phone and are refused. */
const phoneMessages = new Set(vectors.filter((v) => v.error !== null && changedFields(v).join() === "phone").map((v) => v.error));

interface Check {
  what: string;
  run: () => void;
}

/** What the browser decides about a vector. */
function checksFor(vector: LeadVector): Check[] {
  const checks: Check[] = [];
  const accepted = vector.error === null;
  if (accepted) {
    checks.push({ what: "the browser lets it through", run: () => expect(browserRefusal(vector.body)).toBeNull() });
  }
  // The form always has a phone field: a missing phone is an empty one.
  const phone = vector.body.phone ?? "";
  if (typeof phone === "string" && (accepted || phoneMessages.has(vector.error))) {
    const what = accepted ? "lib/phone.ts gives the stored number" : "lib/phone.ts refuses the number too";
    checks.push({ what, run: () => expect(parseUsPhone(phone)).toBe(accepted ? vector.phone : null) });
  }
  const changed = changedFields(vector);
  const control = changed.length === 1 ? controls.get(changed[0]) : undefined;
  if (control && control.type !== "hidden") {
    const value = vector.body[control.name];
    if (isAbsent(value)) {
      checks.push({
        what: `${control.name} is required exactly when leaving it empty is refused`,
        run: () => expect(control.required).toBe(!accepted),
      });
    } else if (control.maxLength !== null && typeof value === "string" && value.length > control.maxLength) {
      checks.push({
        what: `the browser stops ${control.name} at ${control.maxLength} characters, and the server refuses more`,
        run: () => expect(accepted).toBe(false),
      });
    }
  }
  return checks;
}

/** Why the browser cannot decide a vector it has no check for; null when no reason is named. */
function skipReason(vector: LeadVector): string | null {
  const changed = changedFields(vector);
  if (changed.length > 1) return SEVERAL_FIELDS;
  return SERVER_ONLY[changed[0]] ?? null;
}

describe("the callback form against catalogue/cases/leads.json", () => {
  it("starts from a complete request the server accepts", () => {
    expect(baseline.error).toBeNull();
    expect(browserRefusal(baseline.body)).toBeNull();
  });

  it("marks as required exactly the fields whose absence the server refuses, and not ZIP", () => {
    const refusedWhenEmpty = new Set<string>();
    const acceptedWhenEmpty = new Set<string>();
    for (const vector of vectors) {
      const changed = changedFields(vector);
      const control = changed.length === 1 ? controls.get(changed[0]) : undefined;
      if (!control || control.type === "hidden" || !isAbsent(vector.body[control.name])) continue;
      (vector.error === null ? acceptedWhenEmpty : refusedWhenEmpty).add(control.name);
    }
    const required = visitorControls.filter((c) => c.required).map((c) => c.name);
    expect([...refusedWhenEmpty].sort()).toEqual(["consent", "fullName", "phone"]);
    expect([...acceptedWhenEmpty]).toEqual(["zipCode"]);
    expect(required.sort()).toEqual([...refusedWhenEmpty].sort());
  });

  for (const vector of vectors) {
    const checks = checksFor(vector);
    if (checks.length > 0) {
      it(`${vector.name}: ${checks.map((c) => c.what).join("; ")}`, () => {
        for (const check of checks) check.run();
      });
      continue;
    }
    const reason = skipReason(vector);
    if (reason === null) {
      it(`${vector.name}: the browser decides it, or a reason says why not`, () => {
        expect.fail(
          `no browser check decides "${vector.name}" and no reason in SERVER_ONLY names why (fields changed: ${changedFields(vector).join(", ")})`,
        );
      });
      continue;
    }
    it.skip(`${vector.name} (skipped: ${reason})`, () => {});
  }
});
