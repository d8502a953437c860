// The campaign application modal (docs/product.md, "The campaign application"): the fields of the
// application (ApplicationFields.tsx, shared with the apply page), the rules in order with the first failure in an 'Application Error' banner,
// the mail draft to the info address, then after 1000 ms the success panel. Each valid
// application is also posted to the server (docs/product.md, "The campaign application"), whose answer changes nothing
// the visitor sees. Mounted only in the browser, when opened.

import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { HONEYPOT_FIELD } from "../../lib/honeypot";
import { DIALOG_BUTTON, Dialog } from "../../ui/Dialog";
import { Honeypot } from "../../ui/Honeypot";
import { ApplicationError, ApplicationFields, RequiredNote } from "./ApplicationFields";
import {
  type ApplicationValues,
  applicationPayload,
  EMPTY_APPLICATION,
  EXCEPTION_MESSAGE,
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
        <RequiredNote />
        <ApplicationFields idPrefix={id} campaigns={campaigns} values={values} onChange={setValues} disabled={busy} />
        {status.kind === "error" ? <ApplicationError message={status.message} /> : null}
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
