// The account dialog's sign-up (docs/product.md, "Accounts"): its thirteen rules in order,
// the first failure shown, and the mail draft to the company's info address. Passwords are
// checked here and go nowhere else: not into the draft, not into the copy our server keeps.

import { formatDateTime } from "../../lib/format";
import { mailtoUrl } from "../../lib/mailDraft";
import { type AccountType, charCount, EMAIL_PATTERN, type FieldError, TYPE_LABEL, textProblem, type Values } from "./accounts";

export const MIN_USERNAME = 3;
export const MIN_PASSWORD = 8;

export const SIGNUP_ERROR = "An error occurred during registration. Please try again.";

/** The sign-up fields each type fills in, besides the common ones. */
export function signupFields(type: AccountType): string[] {
  const common = ["firstName", "lastName", "email", "username"];
  switch (type) {
    case "homeowner":
      return [...common, "address"];
    case "call-buyer":
      return [...common, "companyName", "serviceAreas"];
    case "affiliate":
      return [...common, "companyName", "website"];
  }
}

/** The labels the form and the mail draft show. */
export const SIGNUP_LABELS: Readonly<Record<string, string>> = {
  firstName: "First Name",
  lastName: "Last Name",
  email: "Email",
  username: "Username",
  password: "Password",
  confirmPassword: "Confirm Password",
  companyName: "Company Name",
  website: "Website URL",
  address: "Address",
  serviceAreas: "Service Areas",
};

const blank = (value: string | undefined) => !value?.trim();

/** The first of the thirteen rules the values break, or null (docs/product.md, "Accounts").
 * The server checks the same rules but 7 to 9, which it never sees. */
export function validateSignup(type: AccountType, values: Values): FieldError | null {
  const v = (name: string) => values[name] ?? "";
  const fail = (field: string, message: string): FieldError => ({ field, message });
  const text = (field: string) => textProblem(field, v(field));

  if (blank(v("firstName"))) return fail("firstName", "First name is required");
  const firstName = text("firstName");
  if (firstName) return firstName;
  if (blank(v("lastName"))) return fail("lastName", "Last name is required");
  const lastName = text("lastName");
  if (lastName) return lastName;
  if (blank(v("email"))) return fail("email", "Email is required");
  const email = text("email");
  if (email) return email;
  if (!EMAIL_PATTERN.test(v("email").trim())) return fail("email", "Please enter a valid email address");
  if (blank(v("username"))) return fail("username", "Username is required");
  if (charCount(v("username").trim()) < MIN_USERNAME) return fail("username", "Username must be at least 3 characters long");
  const username = text("username");
  if (username) return username;
  if (!v("password")) return fail("password", "Password is required");
  if (charCount(v("password")) < MIN_PASSWORD) return fail("password", "Password must be at least 8 characters long");
  if (v("password") !== v("confirmPassword")) return fail("confirmPassword", "Passwords do not match");
  if (type !== "homeowner") {
    if (blank(v("companyName"))) return fail("companyName", "Company name is required");
    const company = text("companyName");
    if (company) return company;
  }
  if (type === "affiliate") {
    if (blank(v("website"))) return fail("website", "Website URL is required");
    const website = text("website");
    if (website) return website;
  }
  if (type === "homeowner") {
    if (blank(v("address"))) return fail("address", "Address is required");
    const address = text("address");
    if (address) return address;
  }
  if (type === "call-buyer") {
    if (blank(v("serviceAreas"))) return fail("serviceAreas", "Service areas are required");
    const areas = text("serviceAreas");
    if (areas) return areas;
  }
  return null;
}

/** 'New Account Registration - {type} - {firstName} {lastName}' (docs/product.md, "Accounts"). */
export function signupSubject(type: AccountType, values: Values): string {
  return `New Account Registration - ${TYPE_LABEL[type]} - ${(values.firstName ?? "").trim()} ${(values.lastName ?? "").trim()}`;
}

/** The draft's body: personal information, registration date, account type, source
 * 'Website Registration' and the next steps. No password. */
export function signupBody(type: AccountType, values: Values, now: Date): string {
  const lines = ["A visitor asked for an account on the website.", "", "PERSONAL INFORMATION"];
  for (const field of signupFields(type)) lines.push(`${SIGNUP_LABELS[field]}: ${(values[field] ?? "").trim()}`);
  lines.push(
    "",
    "REGISTRATION DETAILS",
    `Registration Date: ${formatDateTime(now)}`,
    `Account Type: ${TYPE_LABEL[type]}`,
    "Source: Website Registration",
    "",
    "NEXT STEPS",
    "1. Create the account with the username above.",
    "2. Send the login credentials to the e-mail address above within 24 hours.",
    `3. Set the access level for a ${TYPE_LABEL[type]} account.`,
  );
  return lines.join("\n");
}

/** The mailto URL of the sign-up draft. */
export function signupMailto(to: string, type: AccountType, values: Values, now: Date): string {
  return mailtoUrl(to, signupSubject(type, values), signupBody(type, values, now));
}
