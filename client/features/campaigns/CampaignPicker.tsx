// The application's campaign choice: a searchable multi-select of the live campaigns. The
// chosen ones show as removable chips above a filtered list of checkboxes (the list the
// apply page shows alone, without JavaScript).

import { useId, useState } from "react";

interface Props {
  /** Live campaign names, in catalogue order. */
  campaigns: readonly string[];
  selected: readonly string[];
  onChange: (next: string[]) => void;
  disabled: boolean;
}

export function CampaignPicker({ campaigns, selected, onChange, disabled }: Props) {
  const [query, setQuery] = useState("");
  const id = useId();
  const needle = query.trim().toLowerCase();
  const shown = needle ? campaigns.filter((c) => c.toLowerCase().includes(needle)) : campaigns;
  const toggle = (name: string, on: boolean) =>
    onChange(on ? campaigns.filter((c) => c === name || selected.includes(c)) : selected.filter((c) => c !== name));

  return (
    <fieldset aria-describedby={`${id}-count`}>
      <legend className="mb-1 font-bold text-slate-900">
        Campaigns <span aria-hidden="true">*</span>
      </legend>
      <p id={`${id}-count`} className="mb-2 text-sm text-slate-700" aria-live="polite">
        {selected.length === 0
          ? "No campaign selected yet."
          : selected.length === 1
            ? "1 campaign selected."
            : `${selected.length} campaigns selected.`}
      </p>
      {selected.length > 0 ? (
        <ul className="mb-2 flex flex-wrap gap-2" aria-label="Selected campaigns">
          {selected.map((name) => (
            <li key={name} className="flex items-center gap-1 rounded-full bg-blue-50 px-3 py-1 text-sm font-normal text-blue-800">
              {name}
              <button
                type="button"
                disabled={disabled}
                onClick={() => toggle(name, false)}
                aria-label={`Remove ${name}`}
                className="rounded-full px-2 text-base text-blue-800 disabled:opacity-50"
              >
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="rounded-lg border border-slate-500">
        <label htmlFor={`${id}-search`} className="sr-only">
          Find a campaign to add
        </label>
        <input
          id={`${id}-search`}
          type="search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          disabled={disabled}
          placeholder="Find a campaign to add"
          autoComplete="off"
          className="w-full rounded-lg border-b border-slate-500 px-3 py-2 text-base"
        />
        <div className="max-h-64 overflow-y-auto p-2">
          {shown.length === 0 ? (
            <p className="px-2 py-3 text-sm text-slate-700">No campaign matches “{query.trim()}”.</p>
          ) : (
            <CampaignChecklist campaigns={shown} selected={selected} onToggle={toggle} disabled={disabled} />
          )}
        </div>
      </div>
    </fieldset>
  );
}

interface ChecklistProps {
  campaigns: readonly string[];
  selected: readonly string[];
  /** With it, the boxes show `selected` and report each change; without it, they start at
   * `selected` and the browser keeps them (a form posted as it is, without JavaScript). */
  onToggle?: (name: string, on: boolean) => void;
  disabled?: boolean;
  className?: string;
}

/** The live campaigns as checkboxes named `selectedCampaigns`. */
export function CampaignChecklist({ campaigns, selected, onToggle, disabled, className }: ChecklistProps) {
  return (
    <ul aria-label="Live campaigns" className={className}>
      {campaigns.map((name) => (
        <li key={name}>
          <label className="flex items-start gap-3 rounded px-2 py-1 text-sm text-slate-900 hover:bg-slate-100">
            <input
              type="checkbox"
              name="selectedCampaigns"
              value={name}
              checked={onToggle ? selected.includes(name) : undefined}
              defaultChecked={onToggle ? undefined : selected.includes(name)}
              onChange={onToggle ? (e) => onToggle(name, e.target.checked) : undefined}
              disabled={disabled}
              className="mt-0.5 h-4 w-4 shrink-0 accent-blue-700"
            />
            {name}
          </label>
        </li>
      ))}
    </ul>
  );
}
