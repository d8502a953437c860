// The contractor login type chooser, its two 'coming soon' alerts and the affiliate
// dashboard panel. Loaded when the visitor first opens one of them, so none of this weighs
// on the page's first load.
import { formatPhone } from "../../lib/phone";
import { DEMO_AFFILIATE } from "../../lib/demoAffiliate";
import { loginAlertText } from "../../lib/headerAlerts";
import type { LoginAlert } from "../../lib/headerAlerts";
import { clearAffiliateViewMode } from "../../lib/preferences";
import { CallLink } from "../CallLink";
import { Dialog } from "../Dialog";

/** Which of them is open (spec section 4, Header: each is open or closed). */
export type HeaderOverlayState = { kind: "chooser" } | { kind: "alert"; who: LoginAlert } | { kind: "dashboard" };

interface Props {
  overlay: HeaderOverlayState;
  onChange: (next: HeaderOverlayState | null) => void;
  /** The support number: ten digits. */
  phone: string;
  returnFocusTo: HTMLElement | null;
}

const CHOICES = [
  { who: "homeowner", title: "Homeowners", text: "Get service for your home" },
  { who: "contractor", title: "Contractors/Call Buyers", text: "Manage your call answering service" },
  { who: "affiliate", title: "Affiliate Partners", text: "View available campaigns & apply" },
] as const;

const BUTTON = "inline-flex items-center justify-center rounded-xl px-5 py-3 font-bold";

export default function HeaderOverlay({ overlay, onChange, phone, returnFocusTo }: Props) {
  const close = () => onChange(null);
  // Each overlay is its own Dialog (a key per kind): moving from one to the next closes the
  // first and opens the second, with focus moved into it.
  switch (overlay.kind) {
    case "chooser":
      return (
        <Dialog key="chooser" title="Choose your account type" eyebrow="Log in" onClose={close} testId="login-chooser" returnFocusTo={returnFocusTo}>
          <p className="text-slate-700">Pick how you work with us to continue.</p>
          <ul className="mt-4 grid gap-3">
            {CHOICES.map((choice) => (
              <li key={choice.who}>
                <button
                  type="button"
                  onClick={() => {
                    if (choice.who === "affiliate") {
                      clearAffiliateViewMode();
                      onChange({ kind: "dashboard" });
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
            {loginAlertText(overlay.who, phone)}
          </p>
          <div className="mt-5 flex flex-col gap-3 sm:flex-row">
            <CallLink phone={phone} service="site" location="login-alert" className={`${BUTTON} bg-blue-700 text-white hover:bg-blue-800`}>
              Call {formatPhone(phone)}
            </CallLink>
            <button type="button" data-autofocus onClick={close} className={`${BUTTON} border border-slate-300 text-slate-900 hover:bg-slate-100`}>
              OK
            </button>
          </div>
        </Dialog>
      );
    case "dashboard":
      return (
        <Dialog key="dashboard" title="Affiliate Dashboard" eyebrow="Demo account" onClose={close} testId="affiliate-dashboard" returnFocusTo={returnFocusTo}>
          <p className="text-slate-800">
            Signed in as <strong>{DEMO_AFFILIATE.contactName}</strong> of <strong>{DEMO_AFFILIATE.companyName}</strong>, our sample
            affiliate partner.
          </p>
          <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="font-semibold text-slate-600">Contact</dt>
            <dd>{DEMO_AFFILIATE.contactName}</dd>
            <dt className="font-semibold text-slate-600">E-mail</dt>
            <dd>{DEMO_AFFILIATE.email}</dd>
            <dt className="font-semibold text-slate-600">Phone</dt>
            <dd>{formatPhone(DEMO_AFFILIATE.phone)}</dd>
          </dl>
          <p className="mt-4 text-slate-700">
            This demo account does not track campaigns or payouts. Partners earn $28-$175+ per qualified lead, paid weekly, and need no
            account to apply.
          </p>
          <a href="/campaigns" className={`${BUTTON} mt-5 w-full bg-blue-700 text-white hover:bg-blue-800`}>
            Browse live campaigns
          </a>
        </Dialog>
      );
  }
}
