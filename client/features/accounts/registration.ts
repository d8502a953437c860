// The registration forms (docs/product.md, "Accounts"): the header's registration modal, which
// has only the browser's own checks, and the registration request form at /register (the
// spec's second version), which shows its own messages, first failure first. Both ask the
// same fields of each type and compose the same mail draft.

import { formatDateTime } from "../../lib/format";
import { mailtoUrl } from "../../lib/mailDraft";
import { MONTHLY_VOLUMES, type Option } from "../../lib/options";
import { isRegistrationPhone } from "../../lib/phone";
import { type AccountType, EMAIL_PATTERN, type FieldError, TYPE_LABEL, textProblem, type Values } from "./accounts";

export interface FieldSpec {
  name: string;
  label: string;
  kind: "text" | "email" | "tel" | "url" | "select" | "textarea";
  autoComplete?: string;
  options?: readonly Option[];
  /** The request form's message when the field is blank (docs/product.md, "Accounts"). */
  required: string;
  /** Shown under the field. */
  hint?: string;
}

export const PROPERTY_TYPES: readonly Option[] = [
  { value: "single-family", label: "Single-family home" },
  { value: "condo", label: "Condo" },
  { value: "townhouse", label: "Townhouse" },
  { value: "apartment", label: "Apartment" },
  { value: "multi-family", label: "Multi-family" },
  { value: "commercial", label: "Commercial" },
];

export const BUSINESS_TYPES: readonly Option[] = [
  { value: "hvac", label: "HVAC" },
  { value: "roofing", label: "Roofing" },
  { value: "plumbing", label: "Plumbing" },
  { value: "flooring", label: "Flooring" },
  { value: "pest-control", label: "Pest Control" },
  { value: "siding", label: "Siding" },
  { value: "general", label: "General Contractor" },
  { value: "other", label: "Other" },
];

export const MONTHLY_BUDGETS: readonly Option[] = [
  { value: "1000-2500", label: "$1,000 - $2,500" },
  { value: "2500-5000", label: "$2,500 - $5,000" },
  { value: "5000-10000", label: "$5,000 - $10,000" },
  { value: "10000-25000", label: "$10,000 - $25,000" },
  { value: "25000+", label: "$25,000+" },
];

const COMMON: readonly FieldSpec[] = [
  { name: "firstName", label: "First Name", kind: "text", autoComplete: "given-name", required: "First name is required" },
  { name: "lastName", label: "Last Name", kind: "text", autoComplete: "family-name", required: "Last name is required" },
  { name: "email", label: "Email Address", kind: "email", autoComplete: "email", required: "Email is required" },
  { name: "phone", label: "Phone Number", kind: "tel", autoComplete: "tel", required: "Phone number is required" },
];

const COMPANY: FieldSpec = {
  name: "companyName",
  label: "Company Name",
  kind: "text",
  autoComplete: "organization",
  required: "Company name is required",
};

/** Each type's fields, in the form's order (docs/product.md, "Accounts"). */
export const REGISTRATION_FIELDS: Readonly<Record<AccountType, readonly FieldSpec[]>> = {
  homeowner: [
    ...COMMON,
    { name: "address", label: "Property Address", kind: "text", autoComplete: "street-address", required: "Address is required" },
    { name: "propertyType", label: "Property Type", kind: "select", options: PROPERTY_TYPES, required: "Property type is required" },
    {
      name: "serviceNeeds",
      label: "Service Needs",
      kind: "textarea",
      required: "Service needs are required",
      hint: "What needs doing, and how soon? For example: a roof leak over the kitchen, repair this week.",
    },
  ],
  "call-buyer": [
    ...COMMON,
    COMPANY,
    { name: "businessType", label: "Business Type", kind: "select", options: BUSINESS_TYPES, required: "Business type is required" },
    { name: "monthlyBudget", label: "Monthly Budget", kind: "select", options: MONTHLY_BUDGETS, required: "Monthly budget is required" },
    {
      name: "serviceAreas",
      label: "Service Areas",
      kind: "textarea",
      required: "Service areas are required",
      hint: "Cities, counties or ZIP codes you serve.",
    },
  ],
  affiliate: [
    ...COMMON,
    COMPANY,
    { name: "website", label: "Website", kind: "url", autoComplete: "url", required: "Website URL is required" },
    {
      name: "trafficSources",
      label: "Traffic Sources",
      kind: "textarea",
      required: "Traffic sources are required",
      hint: "For example: search ads, social media, SEO sites, call centers.",
    },
    { name: "monthlyVolume", label: "Monthly Volume", kind: "select", options: MONTHLY_VOLUMES, required: "Monthly volume is required" },
  ],
};

export const fieldNames = (type: AccountType): string[] => REGISTRATION_FIELDS[type].map((f) => f.name);

/** A select holding something not in its list (only a hand-made request can). */
export const notAnOption = (label: string): string => `Please choose a ${label.toLowerCase()} from the list`;
export const MSG_EMAIL = "Please enter a valid email address";
export const MSG_PHONE = "Please enter a valid phone number";

/** The registration request form's rules (docs/product.md, "Accounts"), in the form's order: the first
 * failure, or null. */
export function validateRequest(type: AccountType, values: Values): FieldError | null {
  for (const spec of REGISTRATION_FIELDS[type]) {
    const value = values[spec.name] ?? "";
    if (!value.trim()) return { field: spec.name, message: spec.required };
    if (spec.options) {
      if (!spec.options.some((o) => o.value === value.trim())) return { field: spec.name, message: notAnOption(spec.label) };
      continue;
    }
    const problem = textProblem(spec.name, value);
    if (problem) return problem;
    if (spec.name === "email" && !EMAIL_PATTERN.test(value.trim())) return { field: "email", message: MSG_EMAIL };
    if (spec.name === "phone" && !isRegistrationPhone(value)) return { field: "phone", message: MSG_PHONE };
  }
  return null;
}

export const REGISTRATION_ERROR_TITLE = "Registration Error";
export const REGISTRATION_ERROR = "An error occurred while submitting your registration. Please try again.";
export const SUCCESS_DELAY_MS = 1000;

/** 'New {account type} Registration - {firstName} {lastName}' (docs/product.md, "Accounts"). */
export function registrationSubject(type: AccountType, values: Values): string {
  return `New ${TYPE_LABEL[type]} Registration - ${(values.firstName ?? "").trim()} ${(values.lastName ?? "").trim()}`;
}

/** The form data, each field with its label (option values with their labels). */
export function registrationBody(type: AccountType, values: Values, now: Date): string {
  const lines = [`A visitor asked for a ${TYPE_LABEL[type]} account on the website.`, ""];
  for (const spec of REGISTRATION_FIELDS[type]) {
    const value = (values[spec.name] ?? "").trim();
    const option = spec.options?.find((o) => o.value === value);
    lines.push(`${spec.label}: ${option ? option.label : value}`);
  }
  lines.push("", `Account Type: ${TYPE_LABEL[type]}`, `Submitted: ${formatDateTime(now)}`);
  return lines.join("\n");
}

export function registrationMailto(to: string, type: AccountType, values: Values, now: Date): string {
  return mailtoUrl(to, registrationSubject(type, values), registrationBody(type, values, now));
}
