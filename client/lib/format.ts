// Formatting that must give the same string in QuickJS (no Intl) and in every
// browser, so server HTML and hydration agree. Never use toLocaleString here.
// Phone numbers have their own module, lib/phone.ts.

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
  const text = `$${formatNumber(whole)}${rest ? `.${String(rest).padStart(2, "0")}` : ""}`;
  return negative ? `-${text}` : text;
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** The visitor's local date and time: "March 5, 2025 at 2:07 PM". */
export function formatDateTime(date: Date): string {
  const hours = date.getHours();
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  const minutes = String(date.getMinutes()).padStart(2, "0");
  return `${MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()} at ${hour12}:${minutes} ${hours < 12 ? "AM" : "PM"}`;
}
