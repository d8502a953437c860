// The header's two 'coming soon' alerts (docs/product.md, "The home page"), with the support number formatted
// as (xxx) xxx-xxxx.
import { formatPhone } from "../../lib/phone";

export type LoginAlert = "homeowner" | "contractor";

export function loginAlertText(who: LoginAlert, phone: string): string {
  const number = formatPhone(phone);
  return who === "homeowner"
    ? `Homeowner dashboard coming soon! Please call ${number} for immediate service.`
    : `Contractor login coming soon! Please call ${number} for access.`;
}
