// What the account forms share (docs/product.md, "Accounts"): the three account types, the
// text rules every form applies, and the copy of each request our server keeps
// (POST /api/account-requests; docs/product.md, "The API"). Free of React, tested alone. The server's
// twin is server/src/accounts/; both pass catalogue/cases/account-requests.json.

import { HONEYPOT_FIELD } from "../../lib/honeypot";
import { REGISTER_PATH } from "./paths";

export { REGISTER_PATH, REGISTERED_PATH } from "./paths";

/** How an account type is stored and sent. Contractors are shown as contractors and stored
 * as call buyers (docs/product.md, "Accounts"). */
export type AccountType = "homeowner" | "call-buyer" | "affiliate";
export const ACCOUNT_TYPES: readonly AccountType[] = ["homeowner", "call-buyer", "affiliate"];

/** The type as the mail subjects and the account dialog's subtitles name it. */
export const TYPE_LABEL: Readonly<Record<AccountType, string>> = {
  homeowner: "Homeowner",
  "call-buyer": "Contractor",
  affiliate: "Affiliate",
};

/** Which form a request came from. */
export type RequestSource = "signup" | "registration" | "request";

/** The path of each type's form on the registration page. */
export const TYPE_SLUG: Readonly<Record<AccountType, string>> = {
  homeowner: "homeowner",
  "call-buyer": "contractor",
  affiliate: "affiliate",
};
export const registerPath = (type: AccountType): string => `${REGISTER_PATH}/${TYPE_SLUG[type]}`;

export function isAccountType(value: unknown): value is AccountType {
  return typeof value === "string" && (ACCOUNT_TYPES as readonly string[]).includes(value);
}

/** The first rule a form breaks: the field to point at and the visitor's message. */
export interface FieldError {
  field: string;
  message: string;
}

/** "{email}, no spaces" (docs/product.md, "Accounts"). `\s` is JavaScript's white space. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Longest value each field takes, in characters (code points). The inputs carry the same
 * numbers as maxlength, so the browser never sends what the server would refuse. */
export const MAX_CHARS: Readonly<Record<string, number>> = {
  firstName: 100,
  lastName: 100,
  email: 254,
  username: 64,
  phone: 40,
  companyName: 150,
  website: 500,
  address: 300,
  serviceAreas: 2000,
  serviceNeeds: 2000,
  trafficSources: 2000,
};

/** Characters a value counts as, the way the server counts them (code points, not UTF-16
 * units: an emoji is one). */
export const charCount = (value: string): number => Array.from(value).length;

/** How the messages below name each field. */
export const FIELD_NOUN: Readonly<Record<string, string>> = {
  firstName: "First name",
  lastName: "Last name",
  email: "Email",
  username: "Username",
  phone: "Phone number",
  companyName: "Company name",
  website: "Website URL",
  address: "Address",
  serviceAreas: "Service areas",
  serviceNeeds: "Service needs",
  trafficSources: "Traffic sources",
};

/** Fields typed into a textarea: the only ones that may hold line breaks. */
export const MULTILINE: ReadonlySet<string> = new Set(["serviceAreas", "serviceNeeds", "trafficSources"]);

/** A control character other than tab, carriage return and line feed. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's purpose
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const LINE_BREAK = /[\r\n]/;

/** Messages for what the spec leaves unsaid: too long, and characters a field cannot hold. */
export const tooLong = (field: string): string => `${FIELD_NOUN[field]} must be ${MAX_CHARS[field]} characters or fewer`;
export const MSG_CONTROL = "Please remove the special characters from your entry";
export const oneLine = (field: string): string => `${FIELD_NOUN[field]} must fit on one line`;

/** The length and character checks of a non-blank field, after its own required rule:
 * null when the value passes. */
export function textProblem(field: string, value: string): FieldError | null {
  const max = MAX_CHARS[field];
  if (max !== undefined && charCount(value.trim()) > max) return { field, message: tooLong(field) };
  if (CONTROL.test(value)) return { field, message: MSG_CONTROL };
  if (!MULTILINE.has(field) && LINE_BREAK.test(value)) return { field, message: oneLine(field) };
  return null;
}

export const ACCOUNT_REQUESTS_URL = "/api/account-requests";

/** Field values as a form holds them. */
export type Values = Readonly<Record<string, string>>;

/** The body our server keeps: the source, the type and the form's fields, trimmed. Never a
 * password: `fields` names what is sent, so nothing else can slip in. */
export function requestBody(
  source: RequestSource,
  accountType: AccountType,
  values: Values,
  fields: readonly string[],
): Record<string, string> {
  const body: Record<string, string> = { source, accountType };
  for (const name of fields) body[name] = (values[name] ?? "").trim();
  body[HONEYPOT_FIELD] = values[HONEYPOT_FIELD] ?? "";
  return body;
}

/** Sends a copy of a request to our server so staff are told even if the visitor never
 * sends the mail draft. What the visitor sees never depends on it: any failure is only
 * logged (without the visitor's data). Resolves to the new request's id, or null. */
export async function sendAccountRequest(body: Record<string, string>, send: typeof fetch = fetch): Promise<string | null> {
  try {
    const response = await send(ACCOUNT_REQUESTS_URL, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      keepalive: true,
    });
    if (!response.ok) {
      console.info(`account request not stored: HTTP ${response.status}`);
      return null;
    }
    const data: unknown = await response.json();
    return typeof data === "object" && data !== null && "id" in data && typeof data.id === "string" ? data.id : null;
  } catch (error) {
    console.info("account request not stored:", error instanceof Error ? error.name : "error");
    return null;
  }
}
