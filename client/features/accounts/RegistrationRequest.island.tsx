import { type FormEvent, useEffect, useRef, useState } from "react";
import { defineIsland } from "../../islands/island";
import { formValues } from "../../lib/formValues";
import { openMailDraft } from "../../lib/mailDraft";
import { isPlainClick } from "../../lib/plainClick";
import { Honeypot } from "../../ui/Honeypot";
import {
  ACCOUNT_REQUESTS_URL,
  type AccountType,
  type FieldError,
  REGISTER_PATH,
  REGISTERED_PATH,
  registerPath,
  requestBody,
  sendAccountRequest,
  TYPE_SLUG,
} from "./accounts";
import { Banner, PRIMARY, REGISTRATION_CHOICES, SECONDARY, SubmitLabel, TypeChoice } from "./parts";
import { RegistrationFields } from "./RegistrationFields";
import {
  fieldNames,
  REGISTRATION_ERROR,
  REGISTRATION_ERROR_TITLE,
  registrationMailto,
  SUCCESS_DELAY_MS,
  validateRequest,
} from "./registration";

interface Props {
  /** The type whose form the page shows; null: the type choice. */
  accountType: AccountType | null;
  /** The company's info address, where the mail draft goes. */
  infoEmail: string;
  /** What the visitor typed, when the server answered a form post with an error. */
  values: Record<string, string>;
  /** That error ("field" empty when it is not one field's). */
  error: FieldError | null;
}

/** The request version's statuses (docs/product.md, "Accounts"): idle, submitting, error. */
type Status = { kind: "idle" } | { kind: "submitting" } | { kind: "error"; message: string; title?: string; field?: string };

/** The type of a /register path, null for /register itself. */
function typeOfPath(path: string): AccountType | null {
  const slug = path.replace(/\/+$/, "").split("/")[2] ?? "";
  const found = (Object.keys(TYPE_SLUG) as AccountType[]).find((t) => TYPE_SLUG[t] === slug);
  return found ?? null;
}

/** The registration request form (the spec's second version) on /register: the type choice,
 * then that type's form with the spec's own messages, first failure shown. Without
 * JavaScript the choices are links and the form posts to the server, which answers with the
 * same rules; with it, the rules run here first, then the mail draft opens, a copy goes to
 * our server and the visitor lands on the same thank-you page. */
function RegistrationRequest({ accountType, infoEmail, values, error }: Props) {
  const [type, setType] = useState<AccountType | null>(accountType);
  const [status, setStatus] = useState<Status>(
    error ? { kind: "error", message: error.message, field: error.field || undefined } : { kind: "idle" },
  );
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const moved = useRef(false);
  const chosen = useRef<AccountType | null>(null);
  useEffect(() => () => clearTimeout(timer.current), []);

  // The browser's back and forward buttons move between the choice and the forms.
  useEffect(() => {
    const onPop = () => {
      moved.current = true;
      setStatus({ kind: "idle" });
      setType(typeOfPath(window.location.pathname));
    };
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, []);

  // After the visitor moves between steps: focus the form's first field, or the type left.
  useEffect(() => {
    if (!moved.current) return;
    const target = type
      ? document.getElementById("request-firstName")
      : chosen.current && document.querySelector<HTMLElement>(`[data-type="${chosen.current}"]`);
    target?.focus();
  }, [type]);

  const go = (next: AccountType | null) => {
    moved.current = true;
    if (next) chosen.current = next;
    window.history.pushState(null, "", next ? registerPath(next) : REGISTER_PATH);
    setStatus({ kind: "idle" });
    setType(next);
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!type || status.kind === "submitting") return;
    const typed = formValues(event.currentTarget);
    const invalid = validateRequest(type, typed);
    if (invalid) {
      setStatus({ kind: "error", message: invalid.message, field: invalid.field });
      document.getElementById(`request-${invalid.field}`)?.focus();
      return;
    }
    try {
      // Inside the visitor's submit, or the browser may not open the mail program.
      openMailDraft(registrationMailto(infoEmail, type, typed, new Date()));
      const sent = sendAccountRequest(requestBody("request", type, typed, fieldNames(type)));
      setStatus({ kind: "submitting" });
      // The same thank-you page as without JavaScript, once the copy has been tried.
      const done = new Promise<void>((resolve) => {
        timer.current = setTimeout(resolve, SUCCESS_DELAY_MS);
      });
      void Promise.all([sent, done]).then(() => window.location.assign(`${REGISTERED_PATH}?type=${TYPE_SLUG[type]}`));
    } catch {
      setStatus({ kind: "error", message: REGISTRATION_ERROR, title: REGISTRATION_ERROR_TITLE });
    }
  };

  if (!type) {
    return (
      <div className="mt-8">
        {status.kind === "error" ? (
          <div className="mb-4">
            <Banner message={status.message} />
          </div>
        ) : null}
        <h2 className="mb-4 text-xl font-bold text-slate-900">Choose your account type</h2>
        <TypeChoice label="Account types" choices={REGISTRATION_CHOICES} href={registerPath} onChoose={go} />
      </div>
    );
  }
  const title = REGISTRATION_CHOICES.find((c) => c.type === type)?.title ?? "";
  const submitting = status.kind === "submitting";
  return (
    <form
      method="post"
      action={ACCOUNT_REQUESTS_URL}
      noValidate
      onSubmit={submit}
      className="mt-8 flex flex-col gap-5"
      aria-labelledby="request-title"
    >
      <h2 id="request-title" className="text-2xl font-bold text-slate-900">
        {title} Registration
      </h2>
      <input type="hidden" name="source" value="request" />
      <input type="hidden" name="accountType" value={type} />
      <Honeypot />
      <div id="request-status" aria-live="polite">
        {status.kind === "error" && !status.field ? <Banner title={status.title} message={status.message} /> : null}
      </div>
      <fieldset disabled={submitting} className="min-w-0">
        <legend className="sr-only">{title} details</legend>
        <div className="flex flex-col gap-5">
          {/* A new set of fields per type: what was typed for one type is not sent for another. */}
          <RegistrationFields
            key={type}
            type={type}
            idPrefix="request"
            checks="custom"
            values={type === accountType ? values : {}}
            error={status.kind === "error" && status.field ? { field: status.field, message: status.message } : undefined}
          />
          <p className="text-sm text-slate-600">All fields are required. We use your details only to set up your account.</p>
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
            <a
              href={REGISTER_PATH}
              aria-disabled={submitting || undefined}
              onClick={(event) => {
                if (submitting) {
                  event.preventDefault();
                  return;
                }
                if (!isPlainClick(event)) return;
                event.preventDefault();
                go(null);
              }}
              className={`${SECONDARY} aria-disabled:cursor-not-allowed aria-disabled:text-slate-500`}
            >
              <span aria-hidden="true">←</span> Back
            </a>
            <button type="submit" className={PRIMARY}>
              <SubmitLabel busy={submitting} label="Complete Registration" />
            </button>
          </div>
        </div>
      </fieldset>
    </form>
  );
}

export default defineIsland("RegistrationRequest", RegistrationRequest);
