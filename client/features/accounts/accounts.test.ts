// The account forms' own logic: the sign-up's thirteen rules (including the password rules
// no server sees), the login attempts, the mail drafts and the copy sent to our server.

import { describe, expect, it, vi } from "vitest";
import { HONEYPOT_FIELD } from "../../lib/honeypot";
import { requestBody, sendAccountRequest } from "./accounts";
import {
  failureMessage,
  LOGIN_DELAY_MS,
  loginStep,
  MAX_LOGIN_ATTEMPTS,
  MSG_CONTACT_SUPPORT,
  MSG_TRY_LATER,
  remainingNote,
  validateLogin,
} from "./login";
import { registrationBody, registrationMailto, registrationSubject } from "./registration";
import { signupBody, signupFields, signupMailto, signupSubject, validateSignup } from "./signup";

const VALID = {
  firstName: "Luis",
  lastName: "Ortega",
  email: "luis@ortegaroofing.example",
  username: "ortegaroof",
  password: "s3cret-Passw0rd",
  confirmPassword: "s3cret-Passw0rd",
  companyName: "Ortega Roofing LLC",
  website: "ortegaroofing.example",
  address: "1 Main St",
  serviceAreas: "Erie County, PA",
};

describe("sign-up: the thirteen rules in order, first failure shown", () => {
  const steps: [string, Partial<typeof VALID>, string][] = [
    ["firstName", { firstName: "" }, "First name is required"],
    ["lastName", { lastName: " " }, "Last name is required"],
    ["email", { email: "" }, "Email is required"],
    ["email", { email: "luis@ortega" }, "Please enter a valid email address"],
    ["username", { username: "" }, "Username is required"],
    ["username", { username: "lo" }, "Username must be at least 3 characters long"],
    ["password", { password: "", confirmPassword: "" }, "Password is required"],
    ["password", { password: "short", confirmPassword: "short" }, "Password must be at least 8 characters long"],
    ["confirmPassword", { confirmPassword: "s3cret-Passw0rD" }, "Passwords do not match"],
    ["companyName", { companyName: "" }, "Company name is required"],
    ["serviceAreas", { serviceAreas: "" }, "Service areas are required"],
  ];
  for (const [field, change, message] of steps) {
    it(`${message} (contractor)`, () => {
      expect(validateSignup("call-buyer", { ...VALID, ...change })).toEqual({ field, message });
    });
  }
  it("rule 11 for affiliates, rule 12 for homeowners", () => {
    expect(validateSignup("affiliate", { ...VALID, website: "" })?.message).toBe("Website URL is required");
    expect(validateSignup("homeowner", { ...VALID, address: "" })?.message).toBe("Address is required");
    expect(validateSignup("homeowner", { ...VALID, companyName: "", website: "", serviceAreas: "" })).toBeNull();
  });
  it("the earlier rule wins when several fail", () => {
    expect(validateSignup("affiliate", { ...VALID, password: "x", companyName: "", website: "" })?.message).toBe(
      "Password must be at least 8 characters long",
    );
    expect(validateSignup("affiliate", {})?.message).toBe("First name is required");
    expect(validateSignup("call-buyer", { ...VALID, password: "", username: "ab" })?.message).toBe(
      "Username must be at least 3 characters long",
    );
  });
  it("passwords are compared exactly, not trimmed", () => {
    expect(validateSignup("homeowner", { ...VALID, confirmPassword: `${VALID.password} ` })?.message).toBe("Passwords do not match");
    expect(validateSignup("homeowner", { ...VALID, password: "        ", confirmPassword: "        " })).toBeNull();
  });
});

describe("sign-up: the mail draft", () => {
  const now = new Date(2025, 2, 5, 14, 7);
  it("has the spec's subject", () => {
    expect(signupSubject("call-buyer", VALID)).toBe("New Account Registration - Contractor - Luis Ortega");
    expect(signupSubject("homeowner", { ...VALID, firstName: " Ana " })).toBe("New Account Registration - Homeowner - Ana Ortega");
  });
  it("lists the personal information, date, type, source and next steps, and never a password", () => {
    const body = signupBody("call-buyer", VALID, now);
    for (const line of [
      "First Name: Luis",
      "Email: luis@ortegaroofing.example",
      "Username: ortegaroof",
      "Company Name: Ortega Roofing LLC",
      "Service Areas: Erie County, PA",
      "Registration Date: March 5, 2025 at 2:07 PM",
      "Account Type: Contractor",
      "Source: Website Registration",
      "NEXT STEPS",
      "1. Create the account with the username above.",
      "2. Send the login credentials to the e-mail address above within 24 hours.",
      "3. Set the access level for a Contractor account.",
    ]) {
      expect(body).toContain(line);
    }
    expect(body).not.toContain(VALID.password);
    expect(body).not.toMatch(/password/i);
    expect(body).not.toContain("Address:");
    const url = signupMailto("info@ringready.example", "call-buyer", VALID, now);
    expect(
      url.startsWith("mailto:info@ringready.example?subject=New%20Account%20Registration%20-%20Contractor%20-%20Luis%20Ortega&body="),
    ).toBe(true);
    expect(decodeURIComponent(url.split("&body=")[1])).toBe(body.replace(/\n/g, "\r\n"));
    expect(url).not.toContain(encodeURIComponent(VALID.password));
  });
  it("each type lists its own fields", () => {
    expect(signupFields("homeowner")).toEqual(["firstName", "lastName", "email", "username", "address"]);
    expect(signupFields("call-buyer")).toEqual(["firstName", "lastName", "email", "username", "companyName", "serviceAreas"]);
    expect(signupFields("affiliate")).toEqual(["firstName", "lastName", "email", "username", "companyName", "website"]);
  });
});

describe("login", () => {
  it("checks the spec's three rules in its order", () => {
    expect(validateLogin("", "")?.message).toBe("Username is required");
    expect(validateLogin("ab", "")?.message).toBe("Password is required");
    expect(validateLogin("ab", "x")?.message).toBe("Username must be at least 3 characters long");
    expect(validateLogin("abc", "x")).toBeNull();
  });
  it("fails every attempt, at most three, then refuses", () => {
    expect(MAX_LOGIN_ATTEMPTS).toBe(3);
    expect(LOGIN_DELAY_MS).toBe(1000);
    expect(failureMessage(1)).toBe("Account not found. 2 attempt(s) remaining. Try signing up instead?");
    expect(failureMessage(2)).toBe("Account not found. 1 attempt(s) remaining. Try signing up instead?");
    expect(failureMessage(3)).toBe(MSG_CONTACT_SUPPORT);
    expect(MSG_CONTACT_SUPPORT).toBe("Maximum login attempts exceeded. Please contact support.");
    expect(remainingNote(1)).toBe("Attempts remaining: 2");
    expect(remainingNote(3)).toBe("Attempts remaining: 0");
    expect(loginStep(2, "dana", "pw")).toEqual({ kind: "attempt" });
    expect(loginStep(3, "dana", "pw")).toEqual({ kind: "refused", message: "Maximum login attempts exceeded. Please try again later." });
    expect(loginStep(3, "", "")).toEqual({ kind: "refused", message: MSG_TRY_LATER });
    expect(loginStep(0, "", "pw")).toEqual({ kind: "refused", message: "Username is required", field: "username" });
  });
});

describe("the registration draft", () => {
  const values = {
    firstName: "Jordan",
    lastName: "Reyes",
    email: "jordan@summitleads.example",
    phone: "+1 800 555 0123",
    companyName: "Summit Lead Partners",
    website: "https://summitleads.example",
    trafficSources: "Search ads\nSEO sites",
    monthlyVolume: "500-1000",
  };
  it("has the spec's subject and the form data, options by their labels", () => {
    expect(registrationSubject("affiliate", values)).toBe("New Affiliate Registration - Jordan Reyes");
    expect(registrationSubject("call-buyer", values)).toBe("New Contractor Registration - Jordan Reyes");
    const body = registrationBody("affiliate", values, new Date(2025, 0, 1, 9, 30));
    expect(body).toContain("Company Name: Summit Lead Partners");
    expect(body).toContain("Monthly Volume: 500-1000 leads");
    expect(body).toContain("Traffic Sources: Search ads\nSEO sites");
    expect(body).toContain("Submitted: January 1, 2025 at 9:30 AM");
    expect(registrationMailto("info@ringready.example", "affiliate", values, new Date())).toMatch(
      /^mailto:info@ringready\.example\?subject=New%20Affiliate%20Registration%20-%20Jordan%20Reyes&body=/,
    );
  });
});

describe("the copy sent to our server", () => {
  it("carries the source, type, the form's fields trimmed and the honeypot; never a password", () => {
    const body = requestBody("signup", "call-buyer", { ...VALID, firstName: " Luis ", [HONEYPOT_FIELD]: "" }, signupFields("call-buyer"));
    expect(body).toEqual({
      source: "signup",
      accountType: "call-buyer",
      firstName: "Luis",
      lastName: "Ortega",
      email: "luis@ortegaroofing.example",
      username: "ortegaroof",
      companyName: "Ortega Roofing LLC",
      serviceAreas: "Erie County, PA",
      hp_website: "",
    });
    expect(JSON.stringify(body)).not.toContain(VALID.password);
  });
  it("never throws: a refusal or a network failure is only logged", async () => {
    const info = vi.spyOn(console, "info").mockImplementation(() => {});
    const refused = vi.fn(async () => new Response(JSON.stringify({ error: "nope" }), { status: 400 }));
    expect(await sendAccountRequest({ email: "dana@example.com" }, refused)).toBeNull();
    const broken = vi.fn(async () => {
      throw new TypeError("Failed to fetch");
    });
    expect(await sendAccountRequest({ email: "dana@example.com" }, broken)).toBeNull();
    const created = vi.fn(async () => new Response(JSON.stringify({ id: "abc" }), { status: 201 }));
    expect(await sendAccountRequest({ email: "dana@example.com" }, created)).toBe("abc");
    expect(created).toHaveBeenCalledWith("/api/account-requests", expect.objectContaining({ method: "POST", keepalive: true }));
    expect(info.mock.calls.flat().join(" ")).not.toContain("dana@example.com");
    info.mockRestore();
  });
});
