// The Available Campaigns modal of the affiliate dashboard (docs/product.md, "The affiliate dashboard (home page header)"): search, status
// select, the list/grid toggle (larger screens only, kept in the affiliateViewMode
// preference), the legend, the cards with 'Apply Now', the empty state and the counts.
// The campaigns come from the catalogue's JSON file, fetched when the modal opens.

import { useEffect, useRef, useState } from "react";
import { readViewMode, saveViewMode, type ViewMode } from "../../lib/preferences";
import type { Campaign } from "../../lib/types";
import { Dialog } from "../../ui/Dialog";
import { ApplicationDialog } from "./ApplicationDialog";
import { Badge, BadgeLegend } from "./Badges";
import { filterByStatus, isLive, STATUS_FILTERS, type StatusFilter } from "./campaigns";

interface Props {
  /** The campaign catalogue as JSON (an immutable asset). */
  campaignsUrl: string;
  /** The info address the application's mail draft goes to. */
  email: string;
  onClose: () => void;
  returnFocusTo: HTMLElement | null;
}

type Loading = { kind: "loading" } | { kind: "failed" } | { kind: "ready"; campaigns: Campaign[] };

const CONTROL = "rounded-lg border border-slate-500 bg-white px-3 py-2.5 text-base text-slate-900";

function ViewToggle({ mode, onChange }: { mode: ViewMode; onChange: (mode: ViewMode) => void }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a labelled set of toggle buttons, not form fields: a <fieldset> would bring its own box rules
    <div role="group" aria-label="View" className="hidden shrink-0 gap-2 sm:flex">
      {(["list", "grid"] as const).map((m) => (
        <button
          key={m}
          type="button"
          aria-pressed={mode === m}
          onClick={() => onChange(m)}
          className={`rounded-lg border border-slate-500 px-3 py-2 text-sm font-bold ${mode === m ? "bg-blue-700 text-white" : "text-slate-800 hover:bg-slate-100"}`}
        >
          {m === "list" ? "List view" : "Grid view"}
        </button>
      ))}
    </div>
  );
}

function CampaignCard({
  campaign: c,
  mode,
  onApply,
}: {
  campaign: Campaign;
  mode: ViewMode;
  onApply: (button: HTMLButtonElement) => void;
}) {
  const row = mode === "list";
  return (
    <article
      className={`flex h-full flex-col gap-3 rounded-xl border border-slate-200 p-4 shadow-sm ${row ? "sm:flex-row sm:items-center sm:gap-5" : ""}`}
    >
      <div className="flex-1">
        <h3 className="font-bold text-slate-900">{c.campaign}</h3>
        <p className="mt-1 flex flex-wrap gap-2">
          <Badge kind="live" label={c.status} />
          {c.inbound ? <Badge kind="inbound" /> : null}
          {c.transfer ? <Badge kind="transfer" /> : null}
        </p>
        <p className="mt-2 text-sm text-slate-700">{c.notes}</p>
        {c.promoAllowed ? (
          <p className="mt-1 text-sm text-slate-700">
            <span className="font-bold text-slate-900">Promotion:</span> {c.promoAllowed}
          </p>
        ) : null}
      </div>
      <dl className={`grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm ${row ? "sm:w-64 sm:shrink-0" : ""}`}>
        <dt className="text-slate-700">Payout</dt>
        <dd className="font-bold text-slate-900">{c.payouts}</dd>
        <dt className="text-slate-700">Payment terms</dt>
        <dd className="text-slate-900">{c.paymentTerms}</dd>
        {/* The small phone card leaves the GEOs out. */}
        <dt className="hidden text-slate-700 sm:block">GEOs</dt>
        <dd className="hidden text-slate-900 sm:block">{c.geos}</dd>
      </dl>
      <button
        type="button"
        onClick={(e) => onApply(e.currentTarget)}
        aria-label={`Apply Now: ${c.campaign}`}
        className={`rounded-xl bg-blue-700 px-4 py-2.5 font-bold text-white hover:bg-blue-800 ${row ? "sm:shrink-0" : "mt-auto"}`}
      >
        Apply Now
      </button>
    </article>
  );
}

export function AvailableCampaignsDialog({ campaignsUrl, email, onClose, returnFocusTo }: Props) {
  const [loading, setLoading] = useState<Loading>({ kind: "loading" });
  const [attempt, setAttempt] = useState(0);
  const [search, setSearch] = useState("");
  const [status, setStatus] = useState<StatusFilter>("all");
  // Mounted only in the browser, so the stored preference can be read at once.
  const [mode, setMode] = useState<ViewMode>(() => readViewMode());
  const [applyFor, setApplyFor] = useState<string | null>(null);
  const applyButton = useRef<HTMLButtonElement | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the retry button's trigger
  useEffect(() => {
    let live = true;
    setLoading({ kind: "loading" });
    fetch(campaignsUrl)
      .then((r) => (r.ok ? (r.json() as Promise<unknown>) : Promise.reject(new Error(String(r.status)))))
      .then((data) => {
        if (!live) return;
        setLoading(Array.isArray(data) ? { kind: "ready", campaigns: data as Campaign[] } : { kind: "failed" });
      })
      .catch(() => live && setLoading({ kind: "failed" }));
    return () => {
      live = false;
    };
  }, [campaignsUrl, attempt]);

  const chooseMode = (next: ViewMode) => {
    setMode(next);
    saveViewMode(next);
  };

  const campaigns = loading.kind === "ready" ? loading.campaigns : [];
  const needle = search.trim().toLowerCase();
  const shown = filterByStatus(campaigns, status).filter((c) => !needle || c.campaign.toLowerCase().includes(needle));
  const liveShown = shown.filter(isLive).length;

  return (
    <Dialog
      title="Available Campaigns"
      subtitle="Choose campaigns that match your traffic sources"
      eyebrow="Affiliate Dashboard"
      onClose={onClose}
      testId="available-campaigns"
      returnFocusTo={returnFocusTo}
      wide
      footer={
        <div className="flex flex-col gap-1 text-sm text-slate-700 sm:flex-row sm:justify-between">
          <p aria-live="polite" className="font-bold text-slate-900">
            Showing {liveShown} live {liveShown === 1 ? "campaign" : "campaigns"}
          </p>
          <p>Questions? Contact your affiliate manager for more details.</p>
        </div>
      }
    >
      <div className="flex flex-col gap-3 sm:flex-row">
        <label className="flex-1">
          <span className="sr-only">Search campaigns</span>
          <input
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="Search campaigns..."
            autoComplete="off"
            className={`${CONTROL} w-full`}
            data-autofocus
          />
        </label>
        <label>
          <span className="sr-only">Campaign status</span>
          <select
            value={status}
            onChange={(e) => setStatus(e.target.value === "live" ? "live" : "all")}
            className={`${CONTROL} w-full sm:w-auto`}
          >
            {STATUS_FILTERS.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
        </label>
        <ViewToggle mode={mode} onChange={chooseMode} />
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: a labelled key to the badges, not form fields */}
      <div role="group" aria-label="Legend" className="mt-4 rounded-xl bg-slate-50 p-3">
        <BadgeLegend />
      </div>

      {loading.kind === "loading" ? (
        <p className="mt-6 text-center text-slate-700" role="status">
          Loading campaigns…
        </p>
      ) : loading.kind === "failed" ? (
        <div className="mt-6 rounded-xl border-l-4 border-red-700 bg-red-50 p-6 text-center" role="alert">
          <p className="font-bold text-red-900">We could not load the campaigns.</p>
          <p className="mt-1 text-red-900">Check your connection and try again, or browse them on the campaign portal.</p>
          <div className="mt-4 flex flex-col justify-center gap-3 sm:flex-row">
            <button
              type="button"
              onClick={() => setAttempt((n) => n + 1)}
              className="rounded-xl bg-blue-700 px-4 py-2.5 font-bold text-white hover:bg-blue-800"
            >
              Try again
            </button>
            <a href="/campaigns" className="rounded-xl border border-slate-400 px-4 py-2.5 font-bold text-slate-900 hover:bg-white">
              Open the campaign portal
            </a>
          </div>
        </div>
      ) : shown.length === 0 ? (
        <div className="mt-6 rounded-xl border border-dashed border-slate-300 p-10 text-center">
          <p className="font-bold text-slate-900">No campaigns found</p>
          <p className="text-slate-700">Try adjusting your search or filter criteria</p>
        </div>
      ) : (
        <ul aria-label="Campaigns" data-view={mode} className={`mt-4 grid gap-3 ${mode === "grid" ? "sm:grid-cols-2 lg:grid-cols-3" : ""}`}>
          {shown.map((c) => (
            <li key={c.campaign}>
              <CampaignCard
                campaign={c}
                mode={mode}
                onApply={(button) => {
                  applyButton.current = button;
                  setApplyFor(c.campaign);
                }}
              />
            </li>
          ))}
        </ul>
      )}

      {applyFor !== null ? (
        <ApplicationDialog
          campaigns={campaigns.filter(isLive).map((c) => c.campaign)}
          preselected={applyFor}
          email={email}
          onClose={() => setApplyFor(null)}
          returnFocusTo={applyButton.current}
        />
      ) : null}
    </Dialog>
  );
}
