// Small pieces the account and registration forms share: the type choice, labelled fields,
// the password field with its show/hide toggle, the error banner, the spinner and the
// success panel.

import { type ReactNode, useState } from "react";
import { isPlainClick } from "../../lib/plainClick";
import type { AccountType } from "./accounts";

export const INPUT =
  "w-full rounded-lg border border-slate-500 bg-white px-4 py-3 text-base text-slate-900 disabled:bg-slate-100 disabled:text-slate-600 aria-[invalid=true]:border-red-700";
export const LABEL = "mb-1 block font-bold text-slate-900";
export const PRIMARY =
  "inline-flex items-center justify-center gap-2 rounded-xl bg-blue-700 px-6 py-3 text-lg font-bold text-white shadow hover:bg-blue-800 disabled:cursor-not-allowed disabled:bg-slate-500";
export const SECONDARY =
  "inline-flex items-center justify-center gap-2 rounded-xl border border-slate-300 px-5 py-3 font-bold text-slate-900 hover:bg-slate-100 disabled:cursor-not-allowed disabled:text-slate-500";

export interface Choice {
  type: AccountType;
  title: string;
  text: string;
}

/** The account dialog's three types (docs/product.md, "Accounts"). */
export const ACCOUNT_CHOICES: readonly Choice[] = [
  { type: "homeowner", title: "Homeowners", text: "Get service for your home" },
  { type: "call-buyer", title: "Contractors/Call Buyers", text: "Manage your call answering service" },
  { type: "affiliate", title: "Affiliate Partners", text: "View available campaigns & apply" },
];

/** The registration forms' three types (docs/product.md, "Accounts"). */
export const REGISTRATION_CHOICES: readonly Choice[] = [
  { type: "homeowner", title: "Homeowner", text: "Get matched with licensed local pros for your home" },
  { type: "call-buyer", title: "Contractors & Call Buyers", text: "Live call answering and qualified leads for your business" },
  { type: "affiliate", title: "Affiliate Partners", text: "Earn $28-$175+ per qualified lead, paid weekly" },
];

const CHOICE = "flex w-full flex-col rounded-xl border border-slate-300 px-4 py-3 text-left hover:border-blue-700 hover:bg-blue-50";

/** The type choice: buttons, or links (`href`) that work without JavaScript. */
export function TypeChoice({
  choices,
  onChoose,
  href,
  label,
}: {
  choices: readonly Choice[];
  onChoose: (type: AccountType) => void;
  href?: (type: AccountType) => string;
  label: string;
}) {
  return (
    <ul className="grid gap-3" aria-label={label}>
      {choices.map((choice) => {
        const content = (
          <>
            <span className="block font-bold text-slate-900">{choice.title}</span>
            <span className="block text-sm text-slate-700">{choice.text}</span>
          </>
        );
        return (
          <li key={choice.type}>
            {href ? (
              <a
                href={href(choice.type)}
                data-type={choice.type}
                className={CHOICE}
                onClick={(event) => {
                  if (!isPlainClick(event)) return;
                  event.preventDefault();
                  onChoose(choice.type);
                }}
              >
                {content}
              </a>
            ) : (
              <button type="button" data-type={choice.type} className={CHOICE} onClick={() => onChoose(choice.type)}>
                {content}
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** A red banner: an optional title (e.g. 'Registration Error') over the message. */
export function Banner({ title, message, id }: { title?: string; message: string; id?: string }) {
  return (
    <div id={id} role="alert" className="rounded-lg border-l-4 border-red-700 bg-red-50 p-4 text-red-900">
      {title ? <p className="font-bold">{title}</p> : null}
      <p className={title ? "mt-1" : "font-bold"}>{message}</p>
    </div>
  );
}

/** The first rule's message, under the field it is about (the field's aria-describedby). */
export function FieldMessage({ id, message }: { id: string; message: string }) {
  return (
    <p id={id} role="alert" className="mt-1 font-bold text-red-800">
      {message}
    </p>
  );
}

export function Spinner() {
  return (
    <svg viewBox="0 0 24 24" className="h-5 w-5 motion-safe:animate-spin" aria-hidden="true" focusable="false" fill="none">
      <circle cx="12" cy="12" r="9" stroke="currentColor" strokeOpacity="0.3" strokeWidth="3" />
      <path d="M21 12a9 9 0 0 0-9-9" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}

/** A submit button's content: the spinner and 'Submitting...' while the form is sent, else its label. */
export function SubmitLabel({ busy, label }: { busy: boolean; label: string }) {
  return busy ? (
    <>
      <Spinner />
      Submitting...
    </>
  ) : (
    label
  );
}

/** A password input with a button that shows or hides what was typed. */
export function PasswordField({
  id,
  name,
  label,
  value,
  onChange,
  disabled,
  error,
  autoComplete,
}: {
  id: string;
  name: string;
  label: string;
  value?: string;
  onChange?: (value: string) => void;
  disabled?: boolean;
  /** The message when this field broke the first rule. */
  error?: string;
  autoComplete: "current-password" | "new-password";
}) {
  const [shown, setShown] = useState(false);
  return (
    <div>
      <label htmlFor={id} className={LABEL}>
        {label}
      </label>
      <div className="relative">
        <input
          id={id}
          name={name}
          type={shown ? "text" : "password"}
          autoComplete={autoComplete}
          value={value}
          onChange={onChange ? (e) => onChange(e.target.value) : undefined}
          disabled={disabled}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className={`${INPUT} pr-24`}
        />
        <button
          type="button"
          onClick={() => setShown(!shown)}
          aria-pressed={shown}
          aria-label={shown ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
          disabled={disabled}
          className="absolute inset-y-1 right-1 rounded-md px-3 text-sm font-bold text-blue-800 hover:bg-blue-50 disabled:text-slate-500"
        >
          {shown ? "Hide" : "Show"}
        </button>
      </div>
      {error ? <FieldMessage id={`${id}-error`} message={error} /> : null}
    </div>
  );
}

/** What every successful account request ends with (docs/product.md, "Accounts"). */
export function SuccessPanel({ onClose, children }: { onClose: () => void; children?: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-3 py-4 text-center" data-testid="registration-success">
      <svg
        viewBox="0 0 24 24"
        className="h-14 w-14 text-green-700"
        aria-hidden="true"
        focusable="false"
        fill="none"
        stroke="currentColor"
        strokeWidth={2}
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <circle cx="12" cy="12" r="10" />
        <path d="m8 12 3 3 5-6" />
      </svg>
      <h3 className="text-2xl font-bold text-slate-900">Registration Submitted!</h3>
      <div id="registration-success-text">
        <p className="text-slate-800">Your account request has been sent to our team.</p>
        <p className="text-slate-700">We'll create your account and send login credentials within 24 hours.</p>
      </div>
      {children}
      <button
        type="button"
        onClick={onClose}
        className={`${PRIMARY} mt-2 w-full sm:w-auto`}
        data-autofocus
        aria-describedby="registration-success-text"
      >
        Close
      </button>
    </div>
  );
}
