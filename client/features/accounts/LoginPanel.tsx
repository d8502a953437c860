import { type FormEvent, useEffect, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { atMaximum, failureMessage, LOGIN_DELAY_MS, LOGIN_FAILED_TITLE, loginStep, remainingNote } from "./login";
import { Banner, FieldMessage, INPUT, LABEL, PasswordField, PRIMARY, Spinner } from "./parts";

/** `locked`: a submit was refused because the count was already at its maximum; only then
 * are the inputs and the button disabled (until the tab, the type or the dialog changes). */
type Status =
  | { kind: "idle" }
  | { kind: "loading" }
  | { kind: "error"; message: string; title?: string; field?: "username" | "password"; locked?: boolean };

interface Props {
  /** Failed attempts so far: kept by the dialog across tabs and types, reset on close. */
  attempts: number;
  onFailed: (attempts: number) => void;
}

/** The Login tab (docs/product.md, Accounts): no account exists and no network call is made,
 * so every attempt ends, after a second, in 'Login Failed'. The third failure leaves the form
 * usable; a submit after it is refused ('Please try again later') and disables the form. */
export function LoginPanel({ attempts, onFailed }: Props) {
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [status, setStatus] = useState<Status>({ kind: "idle" });
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (status.kind === "loading") return;
    const step = loginStep(attempts, username, password);
    if (step.kind === "refused") {
      const locked = atMaximum(attempts);
      setStatus({ kind: "error", message: step.message, title: locked ? LOGIN_FAILED_TITLE : undefined, field: step.field, locked });
      // Locked, the button under the visitor's finger goes disabled: the Sign Up tab is where
      // to go from there.
      if (locked) document.getElementById("account-tab-signup")?.focus();
      else if (step.field) document.getElementById(`login-${step.field}`)?.focus();
      return;
    }
    setStatus({ kind: "loading" });
    timer.current = setTimeout(() => {
      const next = attempts + 1;
      // Rendered at once, so the password field is enabled again before it takes the focus.
      flushSync(() => {
        onFailed(next);
        setPassword("");
        setStatus({ kind: "error", message: failureMessage(next), title: LOGIN_FAILED_TITLE });
      });
      document.getElementById("login-password")?.focus();
    }, LOGIN_DELAY_MS);
  };

  const loading = status.kind === "loading";
  const locked = status.kind === "error" && status.locked === true;
  const disabled = loading || locked;
  const invalid = status.kind === "error" ? status.field : undefined;
  const fieldError = (name: "username" | "password") => (status.kind === "error" && status.field === name ? status.message : undefined);
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4" aria-describedby="login-status">
      <div>
        <label htmlFor="login-username" className={LABEL}>
          Username
        </label>
        <input
          id="login-username"
          name="username"
          type="text"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          disabled={disabled}
          aria-invalid={invalid === "username" || undefined}
          aria-describedby={invalid === "username" ? "login-username-error" : undefined}
          className={INPUT}
          data-autofocus
        />
        {fieldError("username") ? <FieldMessage id="login-username-error" message={fieldError("username") ?? ""} /> : null}
      </div>
      <PasswordField
        id="login-password"
        name="password"
        label="Password"
        value={password}
        onChange={setPassword}
        disabled={disabled}
        error={fieldError("password")}
        autoComplete="current-password"
      />
      <div id="login-status" aria-live="polite" className="flex flex-col gap-3">
        {status.kind === "error" && !status.field ? <Banner title={status.title} message={status.message} /> : null}
        {attempts > 0 ? (
          <p className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-2 font-bold text-amber-900" data-testid="attempts-note">
            {remainingNote(attempts)}
          </p>
        ) : null}
      </div>
      <button type="submit" disabled={disabled} className={PRIMARY}>
        {loading ? (
          <>
            <Spinner />
            Logging in...
          </>
        ) : (
          "Login"
        )}
      </button>
    </form>
  );
}
