// The campaign application's fields (docs/product.md, "The campaign application"), one form
// body for the portal's application modal and for the apply page that works without
// JavaScript (client/pages/CampaignApplyPage.tsx), and the 'Application Error' banner both show.

import type { Dispatch, SetStateAction } from "react";
import { MONTHLY_VOLUMES } from "../../lib/options";
import { CampaignChecklist, CampaignPicker } from "./CampaignPicker";
import { type ApplicationValues, EXPERIENCE_OPTIONS, MAX_CHARS } from "./campaignApplication";

const INPUT = "w-full rounded-lg border border-slate-500 bg-white px-3 py-2.5 text-base text-slate-900 disabled:bg-slate-100";
const LABEL = "mb-1 block font-bold text-slate-900";

type TextField = "firstName" | "lastName" | "email" | "phone" | "company" | "website";

/** The one-line fields, in the form's order. */
const TEXT_FIELDS: ReadonlyArray<{
  name: TextField;
  id: string;
  label: string;
  type: "text" | "email" | "tel" | "url";
  autoComplete: string;
  required: boolean;
}> = [
  { name: "firstName", id: "first", label: "First Name", type: "text", autoComplete: "given-name", required: true },
  { name: "lastName", id: "last", label: "Last Name", type: "text", autoComplete: "family-name", required: true },
  { name: "email", id: "email", label: "Email", type: "email", autoComplete: "email", required: true },
  { name: "phone", id: "phone", label: "Phone", type: "tel", autoComplete: "tel", required: true },
  { name: "company", id: "company", label: "Company Name", type: "text", autoComplete: "organization", required: true },
  { name: "website", id: "website", label: "Website", type: "url", autoComplete: "url", required: false },
];

const SELECTS = [
  { name: "experience", id: "experience", label: "Experience Level", prompt: "Select your experience", options: EXPERIENCE_OPTIONS },
  { name: "monthlyVolume", id: "volume", label: "Expected Monthly Volume", prompt: "Select monthly volume", options: MONTHLY_VOLUMES },
] as const;

function Required() {
  return <span aria-hidden="true"> *</span>;
}

function Optional() {
  return <span className="font-normal text-slate-700">(optional)</span>;
}

/** 'Fields marked * are required.', above the fields. */
export function RequiredNote() {
  return (
    <p className="text-sm text-slate-700">
      Fields marked <span aria-hidden="true">*</span>
      <span className="sr-only">with an asterisk</span> are required.
    </p>
  );
}

/** The first rule the application broke, in the 'Application Error' banner. */
export function ApplicationError({ message }: { message: string }) {
  return (
    <div role="alert" className="rounded-lg border-l-4 border-red-700 bg-red-50 p-4">
      <p className="font-bold text-red-900">Application Error</p>
      <p className="text-red-900">{message}</p>
    </div>
  );
}

interface Props {
  /** Starts every field's id: unique on the page. */
  idPrefix: string;
  /** The live campaigns' names, in catalogue order. */
  campaigns: readonly string[];
  values: ApplicationValues;
  /** The modal's state setter: the fields then show `values` and report every change, and
   * the campaigns are chosen in the searchable picker. Without it (the apply page) the
   * fields start at `values`, the browser keeps what is typed, the campaigns are a plain
   * list of checkboxes, and the form posts as it is. */
  onChange?: Dispatch<SetStateAction<ApplicationValues>>;
  disabled?: boolean;
}

export function ApplicationFields({ idPrefix, campaigns, values, onChange, disabled = false }: Props) {
  const id = (name: string) => `${idPrefix}-${name}`;
  /** A field's value: shown and reported (the modal), or only where it starts (the page). */
  const bind = (field: Exclude<keyof ApplicationValues, "selectedCampaigns">) =>
    onChange
      ? {
          value: values[field],
          onChange: (event: { target: { value: string } }) => onChange((v) => ({ ...v, [field]: event.target.value })),
        }
      : { defaultValue: values[field] };
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        {TEXT_FIELDS.map((f) => (
          <div key={f.name}>
            <label htmlFor={id(f.id)} className={LABEL}>
              {f.label}
              {f.required ? (
                <Required />
              ) : (
                <>
                  {" "}
                  <Optional />
                </>
              )}
            </label>
            <input
              id={id(f.id)}
              name={f.name}
              type={f.type}
              {...bind(f.name)}
              disabled={disabled}
              required={f.required}
              maxLength={MAX_CHARS[f.name]}
              autoComplete={f.autoComplete}
              placeholder={f.type === "url" ? "https://" : undefined}
              className={INPUT}
              data-autofocus={onChange && f.name === "firstName" ? "" : undefined}
            />
          </div>
        ))}
        {SELECTS.map((s) => (
          <div key={s.name}>
            <label htmlFor={id(s.id)} className={LABEL}>
              {s.label}
              <Required />
            </label>
            <select id={id(s.id)} name={s.name} {...bind(s.name)} disabled={disabled} required className={INPUT}>
              <option value="">{s.prompt}</option>
              {s.options.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </div>
        ))}
      </div>
      {onChange ? (
        <CampaignPicker
          campaigns={campaigns}
          selected={values.selectedCampaigns}
          onChange={(next) => onChange((v) => ({ ...v, selectedCampaigns: next }))}
          disabled={disabled}
        />
      ) : (
        <fieldset>
          <legend className="mb-1 font-bold text-slate-900">
            Campaigns
            <Required />
          </legend>
          <p className="mb-2 text-sm text-slate-700">Tick every campaign you want to run.</p>
          <CampaignChecklist
            campaigns={campaigns}
            selected={values.selectedCampaigns}
            className="max-h-64 overflow-y-auto rounded-lg border border-slate-500 p-2"
          />
        </fieldset>
      )}
      <div>
        <label htmlFor={id("info")} className={LABEL}>
          Additional Information <Optional />
        </label>
        <textarea
          id={id("info")}
          name="additionalInfo"
          rows={3}
          {...bind("additionalInfo")}
          disabled={disabled}
          maxLength={MAX_CHARS.additionalInfo}
          placeholder="Your traffic sources, the verticals you run, anything we should know"
          className={INPUT}
        />
      </div>
    </>
  );
}
