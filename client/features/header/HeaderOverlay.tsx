// The contractor login type chooser, its two 'coming soon' alerts and the affiliate
// dashboard panel. Loaded when the visitor first opens one of them, so none of this weighs
// on the page's first load.

import { formatPhone } from "../../lib/phone";
import { clearAffiliateViewMode } from "../../lib/preferences";
import { CallLink } from "../../ui/CallLink";
import { DIALOG_BUTTON, Dialog } from "../../ui/Dialog";
import { PhoneText } from "../../ui/PhoneText";
import { AffiliateDashboard } from "./AffiliateDashboard";
import type { LoginAlert } from "./headerAlerts";
import { loginAlertText } from "./headerAlerts";

/** Which of them is open (docs/product.md, "The home page"). */
export type HeaderOverlayState =
  | { kind: "chooser" }
  | { kind: "alert"; who: LoginAlert }
  /** The affiliate dashboard, and over it, when `campaigns`, the Available Campaigns modal. */
  | { kind: "dashboard"; campaigns: boolean };

interface Props {
  overlay: HeaderOverlayState;
  onChange: (next: HeaderOverlayState | null) => void;
  /** The support number: ten digits. */
  phone: string;
  /** The info address (the affiliate manager's, and where applications are drafted to). */
  email: string;
  /** The campaign catalogue as JSON. */
  campaignsUrl: string;
  returnFocusTo: HTMLElement | null;
}

const CHOICES = [
  { who: "homeowner", title: "Homeowners", text: "Get service for your home" },
  { who: "contractor", title: "Contractors/Call Buyers", text: "Manage your call answering service" },
  { who: "affiliate", title: "Affiliate Partners", text: "View available campaigns & apply" },
] as const;

export default function HeaderOverlay({ overlay, onChange, phone, email, campaignsUrl, returnFocusTo }: Props) {
  const close = () => onChange(null);
  // Each overlay is its own Dialog (a key per kind): moving from one to the next closes the
  // first and opens the second, with focus moved into it.
  switch (overlay.kind) {
    case "chooser":
      return (
        <Dialog
          key="chooser"
          title="Choose your account type"
          eyebrow="Log in"
          onClose={close}
          testId="login-chooser"
          returnFocusTo={returnFocusTo}
        >
          <p className="text-slate-700">Pick how you work with us to continue.</p>
          <ul className="mt-4 grid gap-3">
            {CHOICES.map((choice) => (
              <li key={choice.who}>
                <button
                  type="button"
                  onClick={() => {
                    if (choice.who === "affiliate") {
                      clearAffiliateViewMode();
                      onChange({ kind: "dashboard", campaigns: false });
                    } else {
                      onChange({ kind: "alert", who: choice.who });
                    }
                  }}
                  className="w-full rounded-xl border border-slate-300 px-4 py-3 text-left hover:bg-blue-50"
                >
                  <span className="block font-bold text-slate-900">{choice.title}</span>
                  <span className="block text-sm text-slate-700">{choice.text}</span>
                </button>
              </li>
            ))}
          </ul>
        </Dialog>
      );
    case "alert":
      return (
        <Dialog
          key={`alert-${overlay.who}`}
          title={overlay.who === "homeowner" ? "Homeowner dashboard" : "Contractor login"}
          onClose={close}
          role="alertdialog"
          describedBy="login-alert-text"
          testId="login-alert"
          returnFocusTo={returnFocusTo}
        >
          <p id="login-alert-text" className="text-lg text-slate-800">
            <PhoneText text={loginAlertText(overlay.who, phone)} />
          </p>
          <div className="mt-5 flex flex-col gap-3 sm:flex-row">
            <CallLink
              phone={phone}
              service="site"
              location="login-alert"
              className={`${DIALOG_BUTTON} bg-blue-700 text-white hover:bg-blue-800`}
            >
              Call {formatPhone(phone)}
            </CallLink>
            <button
              type="button"
              data-autofocus
              onClick={close}
              className={`${DIALOG_BUTTON} border border-slate-300 text-slate-900 hover:bg-slate-100`}
            >
              OK
            </button>
          </div>
        </Dialog>
      );
    case "dashboard":
      return (
        <AffiliateDashboard
          key="dashboard"
          phone={phone}
          email={email}
          campaignsUrl={campaignsUrl}
          campaignsOpen={overlay.campaigns}
          onCampaigns={(campaigns) => onChange({ kind: "dashboard", campaigns })}
          onClose={close}
          returnFocusTo={returnFocusTo}
        />
      );
  }
}
