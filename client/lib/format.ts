// Formatting that must give the same string in QuickJS (no Intl) and in every
// browser, so server HTML and hydration agree. Never use toLocaleString here.

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

/** 5000 → "5,000"; -1234567.5 → "-1,234,567.5". */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const negative = value < 0;
  const [whole, fraction] = String(Math.abs(value)).split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return (negative ? "-" : "") + grouped + (fraction ? `.${fraction}` : "");
}

/** Whole dollars: 175 → "$175"; 1500 → "$1,500"; cents are kept when present: 28.5 → "$28.50". */
export function formatPrice(dollars: number): string {
  if (!Number.isFinite(dollars)) return "";
  const negative = dollars < 0;
  const cents = Math.round(Math.abs(dollars) * 100);
  const whole = Math.floor(cents / 100);
  const rest = cents % 100;
  const text = "$" + formatNumber(whole) + (rest ? "." + String(rest).padStart(2, "0") : "");
  return negative ? "-" + text : text;
}
