// The header's registration modal (docs/product.md, "Accounts"), opened by 'Get Started
// Today' and the closing call to action: choose a type, fill in its form (the browser's own
// checks only), then the mail draft, a copy to our server and, after a second, the success
// panel. Loaded when first opened (client/features/accounts/dialogs.ts).

import { type FormEvent, useEffect, useRef, useState } from "react";
import { formValues } from "../../lib/formValues";
import { openMailDraft } from "../../lib/mailDraft";
import { Dialog } from "../../ui/Dialog";
import { Honeypot } from "../../ui/Honeypot";
import { type AccountType, requestBody, sendAccountRequest } from "./accounts";
import { Banner, PRIMARY, REGISTRATION_CHOICES, SECONDARY, SubmitLabel, SuccessPanel, TypeChoice } from "./parts";
import { RegistrationFields } from "./RegistrationFields";
import { fieldNames, REGISTRATION_ERROR, REGISTRATION_ERROR_TITLE, registrationMailto, SUCCESS_DELAY_MS } from "./registration";

type View = { step: "choose" } | { step: "form"; type: AccountType } | { step: "done" };
type Status = "idle" | "submitting" | "error";

interface Props {
  infoEmail: string;
  onClose: () => void;
  returnFocusTo: HTMLElement | null;
}

export default function RegistrationDialog({ infoEmail, onClose, returnFocusTo }: Props) {
  const [view, setView] = useState<View>({ step: "choose" });
  const [status, setStatus] = useState<Status>("idle");
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const body = useRef<HTMLDivElement>(null);
  const chosen = useRef<AccountType | null>(null);
  const first = useRef(true);
  useEffect(() => () => clearTimeout(timer.current), []);

  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const root = body.current;
    if (!root) return;
    const target =
      view.step === "choose" && chosen.current
        ? root.querySelector<HTMLElement>(`[data-type="${chosen.current}"]`)
        : view.step === "form"
          ? root.querySelector<HTMLElement>("#registration-firstName")
          : root.querySelector<HTMLElement>("[data-autofocus]");
    target?.focus();
  }, [view.step]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    // The browser's checks have passed: the submit event only fires on a valid form.
    event.preventDefault();
    if (view.step !== "form" || status === "submitting") return;
    const type = view.type;
    const values = formValues(event.currentTarget);
    try {
      // Inside the visitor's submit, or the browser may not open the mail program.
      openMailDraft(registrationMailto(infoEmail, type, values, new Date()));
      void sendAccountRequest(requestBody("registration", type, values, fieldNames(type)));
      setStatus("submitting");
      timer.current = setTimeout(() => {
        setStatus("idle");
        setView({ step: "done" });
      }, SUCCESS_DELAY_MS);
    } catch {
      setStatus("error");
    }
  };

  const submitting = status === "submitting";
  const title = view.step === "form" ? REGISTRATION_CHOICES.find((c) => c.type === view.type)?.title : undefined;
  return (
    <Dialog title="Get Started" eyebrow="Registration" onClose={onClose} testId="registration-dialog" returnFocusTo={returnFocusTo} tall>
      <div ref={body}>
        {view.step === "choose" ? (
          <>
            <p className="mb-4 text-slate-700">Choose your account type. Our team sets up every account within 24 hours.</p>
            <TypeChoice
              label="Account types"
              choices={REGISTRATION_CHOICES}
              onChoose={(type) => {
                chosen.current = type;
                setStatus("idle");
                setView({ step: "form", type });
              }}
            />
          </>
        ) : null}
        {view.step === "form" ? (
          <form onSubmit={submit} className="flex flex-col gap-4" aria-describedby="registration-status">
            <h3 className="text-xl font-bold text-slate-900">{title} Registration</h3>
            <Honeypot />
            {/* Disabled while submitting: every field and button at once. */}
            <fieldset disabled={submitting} className="min-w-0">
              <legend className="sr-only">{title} details</legend>
              <div className="flex flex-col gap-4">
                <RegistrationFields type={view.type} idPrefix="registration" checks="native" />
                <div id="registration-status" aria-live="polite">
                  {status === "error" ? <Banner title={REGISTRATION_ERROR_TITLE} message={REGISTRATION_ERROR} /> : null}
                </div>
                <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
                  <button type="button" onClick={() => setView({ step: "choose" })} className={SECONDARY}>
                    <span aria-hidden="true">←</span> Back
                  </button>
                  <button type="submit" className={PRIMARY}>
                    <SubmitLabel busy={submitting} label="Complete Registration" />
                  </button>
                </div>
              </div>
            </fieldset>
          </form>
        ) : null}
        {view.step === "done" ? <SuccessPanel onClose={onClose} /> : null}
      </div>
    </Dialog>
  );
}
