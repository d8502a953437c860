// The affiliate dashboard panel the header opens for the demo affiliate user (docs/product.md, "The affiliate dashboard (home page header)"): who is signed in, what partners earn and
// when, who to call, and the ways into the campaigns. Sample data, and it says so.

import { useEffect, useRef, useState } from "react";
import { formatPhone } from "../../lib/phone";
import { CallLink } from "../../ui/CallLink";
import { DIALOG_BUTTON, Dialog } from "../../ui/Dialog";
import { EmailText } from "../../ui/EmailText";
import { PhoneText } from "../../ui/PhoneText";
import { AvailableCampaignsDialog } from "../campaigns/AvailableCampaignsDialog";
import { DEMO_AFFILIATE } from "./demoAffiliate";

interface Props {
  /** The support number (ten digits) and info address: the account manager's lines. */
  phone: string;
  email: string;
  /** The campaign catalogue as JSON, for the Available Campaigns modal. */
  campaignsUrl: string;
  /** The Available Campaigns modal is open over the panel. */
  campaignsOpen: boolean;
  onCampaigns: (open: boolean) => void;
  onClose: () => void;
  returnFocusTo: HTMLElement | null;
}

const FIGURES = [
  { value: "$28-$175+", label: "per qualified lead" },
  { value: "Weekly", label: "payments" },
  { value: "24-48 hours", label: "application review" },
];

export function AffiliateDashboard({ phone, email, campaignsUrl, campaignsOpen, onCampaigns, onClose, returnFocusTo }: Props) {
  const user = DEMO_AFFILIATE;
  const opener = useRef<HTMLButtonElement>(null);
  // The modal over the panel opens after the panel itself (when both open at once, from the
  // address), so that it is the one on top.
  const [shown, setShown] = useState(false);
  useEffect(() => setShown(true), []);
  return (
    <Dialog title="Affiliate Dashboard" eyebrow="Demo account" onClose={onClose} testId="affiliate-dashboard" returnFocusTo={returnFocusTo}>
      <p className="rounded-lg bg-amber-100 px-3 py-2 text-sm text-amber-900">
        <strong>Demo:</strong> this dashboard shows sample data for a sample partner. Applying to campaigns is real and needs no account.
      </p>
      <h3 className="mt-4 text-2xl font-bold text-slate-900">Welcome back, {user.contactName}</h3>
      <p className="text-slate-700">
        <PhoneText text={`${user.companyName} · ${user.email} · ${formatPhone(user.phone)}`} />
      </p>

      {/* Phones: one figure a line ("$28-$175+ per qualified lead"), as three columns would
          not hold the payout; from 768 px, three boxes side by side. */}
      <ul className="mt-4 grid gap-2 md:grid-cols-3" aria-label="Partner terms">
        {FIGURES.map((f) => (
          <li key={f.label} className="rounded-xl border border-slate-200 px-3 py-2">
            <span className="whitespace-nowrap text-lg font-bold text-blue-800 md:block md:text-xl">{f.value}</span>{" "}
            <span className="text-sm text-slate-700 md:block">{f.label}</span>
          </li>
        ))}
      </ul>

      <div className="mt-4 flex flex-col gap-3 sm:flex-row">
        <button
          ref={opener}
          type="button"
          data-autofocus
          aria-haspopup="dialog"
          onClick={() => onCampaigns(true)}
          className={`${DIALOG_BUTTON} flex-1 bg-blue-700 text-white hover:bg-blue-800`}
        >
          View Available Campaigns
        </button>
        <a href="/campaigns" className={`${DIALOG_BUTTON} flex-1 border border-slate-400 text-slate-900 hover:bg-slate-100`}>
          Open the campaign portal
        </a>
      </div>

      <section className="mt-5 rounded-xl bg-slate-50 p-4" aria-labelledby="affiliate-manager">
        <h3 id="affiliate-manager" className="font-bold text-slate-900">
          Your affiliate manager
        </h3>
        <p className="mt-1 text-sm text-slate-700">Questions about payouts, caps or traffic rules? We answer 24/7.</p>
        <p className="mt-2 flex flex-col gap-1 sm:flex-row sm:gap-5">
          <a href={`mailto:${email}`} className="font-bold text-blue-800 underline underline-offset-2">
            <EmailText address={email} />
          </a>
          <CallLink
            phone={phone}
            service="site"
            location="affiliate-dashboard"
            className="font-bold text-blue-800 underline underline-offset-2"
          >
            {formatPhone(phone)}
          </CallLink>
        </p>
      </section>

      {campaignsOpen && shown ? (
        <AvailableCampaignsDialog
          campaignsUrl={campaignsUrl}
          email={email}
          onClose={() => onCampaigns(false)}
          returnFocusTo={opener.current}
        />
      ) : null}
    </Dialog>
  );
}
