// North American phone numbers: the browser's one phone module. The server's twin is
// UsPhone in server/src/phone.rs; both pass catalogue/cases/phones.json.
//
// Display and tel: links must give the same string in QuickJS and in every browser, so the
// server's HTML and hydration agree: no Intl here.
//
// A form with another rule (the registration forms' international one, docs/product.md, "Accounts") gets
// its own parse function here, and its own section in the vector file.

/** Unicode White_Space: what Rust's str::trim removes. JavaScript's trim() differs (it
 * removes U+FEFF and keeps U+0085), so the parse rule names the set itself. */
const WHITE_SPACE = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;

function trimWhiteSpace(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && WHITE_SPACE.test(text[start])) start++;
  while (end > start && WHITE_SPACE.test(text[end - 1])) end--;
  return text.slice(start, end);
}

/** What a visitor may write between digits. */
const SEPARATORS = /[ .\-()\t]/g;

/** A visitor's number as E.164 ("+18005550100"), or null when it is not one a US agent can
 * dial. White space around it is ignored, and so are spaces, tabs, dots, dashes and brackets
 * inside it; what is left must be ten digits, optionally after 1 or +1. The area code and the
 * exchange must be valid NANP codes: first digit 2-9 and not N11, and an area code never has
 * 9 in the middle. Premium-rate numbers (area code 900, exchange 976) are refused. */
export function parseUsPhone(input: string): string | null {
  const cleaned = trimWhiteSpace(input).replace(SEPARATORS, "");
  let digits: string;
  if (cleaned.startsWith("+")) {
    if (!cleaned.startsWith("+1")) return null;
    digits = cleaned.slice(2);
  } else if (cleaned.length === 11) {
    if (!cleaned.startsWith("1")) return null;
    digits = cleaned.slice(1);
  } else {
    digits = cleaned;
  }
  if (!/^[0-9]{10}$/.test(digits)) return null;
  const areaOk = digits[0] >= "2" && digits[1] !== "9" && !(digits[1] === "1" && digits[2] === "1");
  const exchangeOk = digits[3] >= "2" && !(digits[4] === "1" && digits[5] === "1");
  const premium = digits.startsWith("900") || digits.slice(3, 6) === "976";
  return areaOk && exchangeOk && !premium ? `+1${digits}` : null;
}

/** Digits of a North American number without the leading country code 1. */
function nationalDigits(phone: string): string {
  const digits = phone.replace(/\D/g, "");
  return digits.length === 11 && digits.startsWith("1") ? digits.slice(1) : digits;
}

/** "8005550100" or "+1 800 555 0100" → "(800) 555-0100". Anything that is not
 * a ten-digit number is returned as given, trimmed. */
export function formatPhone(phone: string): string {
  const d = nationalDigits(phone);
  if (d.length !== 10) return phone.trim();
  return `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`;
}

/** The tel: URL for a North American number, in E.164. */
export function telHref(phone: string): string {
  const d = nationalDigits(phone);
  return d.length === 10 ? `tel:+1${d}` : `tel:${phone.replace(/[^\d+]/g, "")}`;
}

/** What the registration request form strips before its phone rule: JavaScript's white
 * space (`\s`), dashes and brackets. */
const REGISTRATION_SEPARATORS = /[\s\-()]/g;

/** The registration request form's phone rule (docs/product.md, "Accounts"): after
 * stripping spaces, dashes and brackets, an optional plus, a first digit that is not zero,
 * then 1 to 16 digits in all. Numbers from any country pass. */
export function isRegistrationPhone(input: string): boolean {
  return /^\+?[1-9]\d{0,15}$/.test(input.replace(REGISTRATION_SEPARATORS, ""));
}
