// The campaign application modal (docs/product.md, "The campaign application"): the fields of the
// application, the rules in order with the first failure in an 'Application Error' banner,
// the mail draft to the info address, then after 1000 ms the success panel. Each valid
// application is also posted to the server (docs/product.md, "The campaign application"), whose answer changes nothing
// the visitor sees. Mounted only in the browser, when opened.

import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { HONEYPOT_FIELD } from "../../lib/honeypot";
import { MONTHLY_VOLUMES } from "../../lib/options";
import { DIALOG_BUTTON, Dialog } from "../../ui/Dialog";
import { Honeypot } from "../../ui/Honeypot";
import { CampaignPicker } from "./CampaignPicker";
import {
  type ApplicationValues,
  applicationPayload,
  EMPTY_APPLICATION,
  EXCEPTION_MESSAGE,
  EXPERIENCE_OPTIONS,
  MAX_CHARS,
  mailtoHref,
  openMailDraft,
  postApplication,
  SUCCESS_DELAY_MS,
  validateApplication,
} from "./campaignApplication";

type Status =
  | { kind: "idle" }
  | { kind: "submitting" }
  | { kind: "error"; message: string }
  | { kind: "success"; firstName: string; email: string };

interface Props {
  /** The live campaigns' names, in catalogue order. */
  campaigns: readonly string[];
  /** The campaign whose 'Apply Now' opened the modal. */
  preselected: string | null;
  /** The info address the mail draft goes to. */
  email: string;
  onClose: () => void;
  returnFocusTo: HTMLElement | null;
}

const INPUT = "w-full rounded-lg border border-slate-500 bg-white px-3 py-2.5 text-base text-slate-900 disabled:bg-slate-100";
const LABEL = "mb-1 block font-bold text-slate-900";

function Required() {
  return <span aria-hidden="true"> *</span>;
}

export function ApplicationDialog({ campaigns, preselected, email, onClose, returnFocusTo }: Props) {
  const initial = (): ApplicationValues => ({
    ...EMPTY_APPLICATION,
    selectedCampaigns: preselected && campaigns.includes(preselected) ? [preselected] : [],
  });
  const [values, setValues] = useState<ApplicationValues>(initial);
  const [status, setStatus] = useState<Status>({ kind: "idle" });
  const timer = useRef<number | undefined>(undefined);
  const formRef = useRef<HTMLFormElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const id = useId();

  useEffect(() => () => window.clearTimeout(timer.current), []);
  useEffect(() => {
    if (status.kind === "success") closeButton.current?.focus();
  }, [status.kind]);

  /** Cancel and Close: everything back to empty, then the modal closes. */
  const close = () => {
    window.clearTimeout(timer.current);
    setValues(initial());
    setStatus({ kind: "idle" });
    onClose();
  };

  const set = (field: Exclude<keyof ApplicationValues, "selectedCampaigns">) => (event: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: event.target.value }));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (status.kind === "submitting") return;
    setStatus({ kind: "submitting" });
    const checked = validateApplication(values, campaigns);
    if (!checked.ok) {
      setStatus({ kind: "error", message: checked.error });
      return;
    }
    try {
      const application = checked.application;
      const honeypot = formRef.current?.querySelector<HTMLInputElement>(`input[name="${HONEYPOT_FIELD}"]`)?.value ?? "";
      openMailDraft(mailtoHref(email, application, new Date()));
      // Staff get it even when the draft is never sent; whatever the answer, the visitor's
      // flow goes on.
      void postApplication(applicationPayload(application, honeypot));
      timer.current = window.setTimeout(() => {
        setValues(initial());
        setStatus({ kind: "success", firstName: application.firstName, email: application.email });
      }, SUCCESS_DELAY_MS);
    } catch {
      setStatus({ kind: "error", message: EXCEPTION_MESSAGE });
    }
  };

  if (status.kind === "success") {
    return (
      <Dialog
        title="Campaign Application"
        eyebrow="No account required"
        onClose={close}
        testId="campaign-application"
        returnFocusTo={returnFocusTo}
      >
        <div className="py-4 text-center" role="status">
          <p
            className="mx-auto flex h-14 w-14 items-center justify-center rounded-full bg-green-100 text-3xl text-green-800"
            aria-hidden="true"
          >
            ✓
          </p>
          <h3 className="mt-4 text-2xl font-bold text-slate-900">Application Submitted!</h3>
          <p className="mt-2 text-slate-700">
            Thank you for applying, {status.firstName}. Our affiliate team reviews every application within 24-48 hours and will contact you
            at <strong className="break-all">{status.email}</strong>.
          </p>
          <p className="mt-2 text-sm text-slate-700">
            If your e-mail program opened a draft addressed to {email}, send it to keep a copy for your records.
          </p>
        </div>
        <button
          ref={closeButton}
          type="button"
          onClick={close}
          className={`${DIALOG_BUTTON} w-full bg-blue-700 text-white hover:bg-blue-800`}
        >
          Close
        </button>
      </Dialog>
    );
  }

  const busy = status.kind === "submitting";
  const field = (name: string) => `${id}-${name}`;
  return (
    <Dialog
      title="Campaign Application"
      eyebrow="No account required"
      subtitle="Tell us about your traffic and we'll review your application within 24-48 hours."
      onClose={close}
      testId="campaign-application"
      returnFocusTo={returnFocusTo}
    >
      <form ref={formRef} noValidate onSubmit={submit} aria-busy={busy} className="flex flex-col gap-4">
        <Honeypot />
        <p className="text-sm text-slate-700">
          Fields marked <span aria-hidden="true">*</span>
          <span className="sr-only">with an asterisk</span> are required.
        </p>
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <label htmlFor={field("first")} className={LABEL}>
              First Name
              <Required />
            </label>
            <input
              id={field("first")}
              name="firstName"
              value={values.firstName}
              onChange={set("firstName")}
              disabled={busy}
              required
              maxLength={MAX_CHARS.firstName}
              autoComplete="given-name"
              className={INPUT}
              data-autofocus
            />
          </div>
          <div>
            <label htmlFor={field("last")} className={LABEL}>
              Last Name
              <Required />
            </label>
            <input
              id={field("last")}
              name="lastName"
              value={values.lastName}
              onChange={set("lastName")}
              disabled={busy}
              required
              maxLength={MAX_CHARS.lastName}
              autoComplete="family-name"
              className={INPUT}
            />
          </div>
          <div>
            <label htmlFor={field("email")} className={LABEL}>
              Email
              <Required />
            </label>
            <input
              id={field("email")}
              name="email"
              type="email"
              value={values.email}
              onChange={set("email")}
              disabled={busy}
              required
              maxLength={MAX_CHARS.email}
              autoComplete="email"
              className={INPUT}
            />
          </div>
          <div>
            <label htmlFor={field("phone")} className={LABEL}>
              Phone
              <Required />
            </label>
            <input
              id={field("phone")}
              name="phone"
              type="tel"
              value={values.phone}
              onChange={set("phone")}
              disabled={busy}
              required
              maxLength={MAX_CHARS.phone}
              autoComplete="tel"
              className={INPUT}
            />
          </div>
          <div>
            <label htmlFor={field("company")} className={LABEL}>
              Company Name
              <Required />
            </label>
            <input
              id={field("company")}
              name="company"
              value={values.company}
              onChange={set("company")}
              disabled={busy}
              required
              maxLength={MAX_CHARS.company}
              autoComplete="organization"
              className={INPUT}
            />
          </div>
          <div>
            <label htmlFor={field("website")} className={LABEL}>
              Website <span className="font-normal text-slate-700">(optional)</span>
            </label>
            <input
              id={field("website")}
              name="website"
              type="url"
              value={values.website}
              onChange={set("website")}
              disabled={busy}
              maxLength={MAX_CHARS.website}
              autoComplete="url"
              placeholder="https://"
              className={INPUT}
            />
          </div>
          <div>
            <label htmlFor={field("experience")} className={LABEL}>
              Experience Level
              <Required />
            </label>
            <select
              id={field("experience")}
              name="experience"
              value={values.experience}
              onChange={set("experience")}
              disabled={busy}
              required
              className={INPUT}
            >
              <option value="">Select your experience</option>
              {EXPERIENCE_OPTIONS.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor={field("volume")} className={LABEL}>
              Expected Monthly Volume
              <Required />
            </label>
            <select
              id={field("volume")}
              name="monthlyVolume"
              value={values.monthlyVolume}
              onChange={set("monthlyVolume")}
              disabled={busy}
              required
              className={INPUT}
            >
              <option value="">Select monthly volume</option>
              {MONTHLY_VOLUMES.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </div>
        </div>
        <CampaignPicker
          campaigns={campaigns}
          selected={values.selectedCampaigns}
          onChange={(next) => setValues((v) => ({ ...v, selectedCampaigns: next }))}
          disabled={busy}
        />
        <div>
          <label htmlFor={field("info")} className={LABEL}>
            Additional Information <span className="font-normal text-slate-700">(optional)</span>
          </label>
          <textarea
            id={field("info")}
            name="additionalInfo"
            rows={3}
            value={values.additionalInfo}
            onChange={set("additionalInfo")}
            disabled={busy}
            maxLength={MAX_CHARS.additionalInfo}
            placeholder="Your traffic sources, the verticals you run, anything we should know"
            className={INPUT}
          />
        </div>
        {status.kind === "error" ? (
          <div role="alert" className="rounded-lg border-l-4 border-red-700 bg-red-50 p-4">
            <p className="font-bold text-red-900">Application Error</p>
            <p className="text-red-900">{status.message}</p>
          </div>
        ) : null}
        <div className="flex flex-col gap-3 sm:flex-row sm:justify-end">
          <button
            type="button"
            onClick={close}
            disabled={busy}
            className={`${DIALOG_BUTTON} border border-slate-400 text-slate-900 hover:bg-slate-100 disabled:opacity-60`}
          >
            Cancel
          </button>
          <button
            type="submit"
            disabled={busy}
            className={`${DIALOG_BUTTON} bg-blue-700 text-white hover:bg-blue-800 disabled:cursor-wait disabled:bg-slate-500`}
          >
            {busy ? "Submitting..." : "Submit Application"}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
