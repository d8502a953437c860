import { type FormEvent, useEffect, useRef, useState } from "react";
import { formValues } from "../../lib/formValues";
import { openMailDraft } from "../../lib/mailDraft";
import { Honeypot } from "../../ui/Honeypot";
import { type AccountType, MAX_CHARS, requestBody, sendAccountRequest } from "./accounts";
import { Banner, FieldMessage, INPUT, LABEL, PasswordField, PRIMARY, SubmitLabel } from "./parts";
import { REGISTRATION_ERROR_TITLE, SUCCESS_DELAY_MS } from "./registration";
import { SIGNUP_ERROR, SIGNUP_LABELS, signupFields, signupMailto, validateSignup } from "./signup";

type Status = { kind: "idle" } | { kind: "loading" } | { kind: "error"; message: string; title?: string; field?: string };

interface Props {
  type: AccountType;
  /** The company's info address the draft is addressed to. */
  infoEmail: string;
  onSuccess: () => void;
}

const AUTOCOMPLETE: Readonly<Record<string, string>> = {
  firstName: "given-name",
  lastName: "family-name",
  email: "email",
  username: "username",
  companyName: "organization",
  website: "url",
  address: "street-address",
};

/** The Sign Up tab (docs/product.md, "Accounts"): the thirteen rules, first failure shown; then
 * the mail draft to the info address, a copy to our server, and success after a second.
 * The passwords stay in this form. */
export function SignupPanel({ type, infoEmail, onSuccess }: Props) {
  const [status, setStatus] = useState<Status>({ kind: "idle" });
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const fields = signupFields(type);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (status.kind === "loading") return;
    const values = formValues(event.currentTarget);
    const invalid = validateSignup(type, values);
    if (invalid) {
      setStatus({ kind: "error", message: invalid.message, field: invalid.field });
      document.getElementById(`signup-${invalid.field}`)?.focus();
      return;
    }
    try {
      // Inside the visitor's submit, or the browser may not open the mail program.
      openMailDraft(signupMailto(infoEmail, type, values, new Date()));
      void sendAccountRequest(requestBody("signup", type, values, fields));
      setStatus({ kind: "loading" });
      timer.current = setTimeout(onSuccess, SUCCESS_DELAY_MS);
    } catch {
      setStatus({ kind: "error", message: SIGNUP_ERROR, title: REGISTRATION_ERROR_TITLE });
    }
  };

  const loading = status.kind === "loading";
  const invalid = status.kind === "error" ? status.field : undefined;
  const fieldError = (name: string) => (status.kind === "error" && status.field === name ? status.message : undefined);
  const text = (name: string, kind: "text" | "email" | "textarea" = "text") => {
    const id = `signup-${name}`;
    const common = {
      id,
      name,
      disabled: loading,
      maxLength: MAX_CHARS[name],
      autoComplete: AUTOCOMPLETE[name],
      "aria-invalid": invalid === name || undefined,
      "aria-describedby": invalid === name ? `${id}-error` : undefined,
      className: INPUT,
    };
    const error = fieldError(name);
    return (
      <div key={name} className={["serviceAreas", "address", "website", "companyName"].includes(name) ? "sm:col-span-2" : ""}>
        <label htmlFor={id} className={LABEL}>
          {SIGNUP_LABELS[name]}
        </label>
        {kind === "textarea" ? <textarea {...common} rows={3} /> : <input {...common} type={kind} />}
        {error ? <FieldMessage id={`${id}-error`} message={error} /> : null}
      </div>
    );
  };
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4" aria-describedby="signup-status">
      <Honeypot />
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        {text("firstName")}
        {text("lastName")}
        {text("email", "email")}
        {text("username")}
        <PasswordField
          id="signup-password"
          name="password"
          label="Password"
          disabled={loading}
          error={fieldError("password")}
          autoComplete="new-password"
        />
        <PasswordField
          id="signup-confirmPassword"
          name="confirmPassword"
          label="Confirm Password"
          disabled={loading}
          error={fieldError("confirmPassword")}
          autoComplete="new-password"
        />
        {fields.slice(4).map((name) => text(name, name === "serviceAreas" ? "textarea" : "text"))}
      </div>
      <div id="signup-status" aria-live="polite">
        {status.kind === "error" && !status.field ? <Banner title={status.title} message={status.message} /> : null}
      </div>
      <button type="submit" disabled={loading} className={PRIMARY}>
        <SubmitLabel busy={loading} label="Create Account" />
      </button>
    </form>
  );
}
