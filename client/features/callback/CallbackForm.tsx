import { type FormEvent, useEffect, useRef, useState } from "react";
import { HONEYPOT_FIELD } from "../../lib/honeypot";
import { Honeypot } from "../../ui/Honeypot";
import { pixelEvent } from "../tracking/pixel";
import {
  CERT_URL_FIELD,
  type Certificate,
  messageForResponse,
  messageForThrown,
  orFallback,
  PING_URL_FIELD,
  readCertificate,
  recordTokenWhenReady,
  SUBMIT_LEAD_URL,
  SUCCESS_MESSAGE,
  waitForCertificate,
  wakeOnChildren,
} from "./callback";
import { type CallbackWindow, callbackWindow } from "./callbackWindow";

type Status =
  | { kind: "idle" }
  | { kind: "sending" }
  | { kind: "ok" }
  | { kind: "error"; message: string }
  // The server's answer to a post made without JavaScript: this form again, its message above the fields.
  | { kind: "refused"; message: string };

interface Props {
  serviceSlug: string;
  consentText: string;
  /** True when the TrustedForm script runs on this page. */
  certification: boolean;
  onLegal: (document: "privacy" | "terms") => void;
  /** Called after a lead was accepted, with its callback window and the submit button. */
  onSubmitted: (window: CallbackWindow, submitButton: HTMLElement | null) => void;
  /** What a refused post without JavaScript sent, back in the fields (the form's page: client/pages/CallbackRequestPage.tsx). */
  values?: Readonly<Record<string, string>>;
  /** That refusal's message, shown above the fields until the form is sent again. */
  refusal?: string;
}

/** The consent wording with "Terms of Service" and "Privacy Policy" as buttons that open
 * the legal modals. Its text content is exactly `text`, which is what the lead carries. */
function ConsentWording({ text, onLegal }: { text: string; onLegal: Props["onLegal"] }) {
  const parts = text.split(/(Terms of Service|Privacy Policy)/);
  return (
    <>
      {parts.map((part, i) =>
        part === "Terms of Service" || part === "Privacy Policy" ? (
          <button
            // biome-ignore lint/suspicious/noArrayIndexKey: the wording's pieces, fixed for the page: a piece's place is its identity
            key={i}
            type="button"
            className="font-bold text-blue-800 underline underline-offset-2"
            onClick={() => onLegal(part === "Privacy Policy" ? "privacy" : "terms")}
          >
            {part}
          </button>
        ) : (
          part
        ),
      )}
    </>
  );
}

/** 'Prefer a Callback?': a real form that posts to the server without JavaScript and, with
 * it, sends JSON, waits for the consent certificate and reports the outcome. */
export function CallbackForm({ serviceSlug, consentText, certification, onLegal, onSubmitted, values = {}, refusal }: Props) {
  const [status, setStatus] = useState<Status>(refusal ? { kind: "refused", message: refusal } : { kind: "idle" });
  const formRef = useRef<HTMLFormElement>(null);
  // Fixed, not useId(): the form hydrates as its own island, where React would count ids
  // from the island instead of the page. There is one callback form per page.
  const id = "callback";
  const consentId = `${id}-consent-text`;

  const certificate = (): Certificate | null => {
    const form = formRef.current;
    if (!form) return null;
    const field = (name: string) => form.querySelector<HTMLInputElement>(`input[name="${name}"]`)?.value;
    return readCertificate(field(CERT_URL_FIELD), field(PING_URL_FIELD));
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: once per page view, with the props of the first render
  useEffect(() => {
    if (certification) void recordTokenWhenReady(certificate, serviceSlug);
    // Once per page view.
  }, []);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (status.kind === "sending") return;
    const form = event.currentTarget;
    const data = new FormData(form);
    setStatus({ kind: "sending" });
    try {
      const cert = await waitForCertificate(certificate, certification, wakeOnChildren(form));
      const response = await fetch(SUBMIT_LEAD_URL, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          serviceSlug,
          fullName: String(data.get("fullName") ?? ""),
          phone: String(data.get("phone") ?? ""),
          zipCode: String(data.get("zipCode") ?? ""),
          consent: data.get("consent") !== null,
          trustedform_token: cert.token,
          trustedform_ping: cert.ping,
          trustedform_cert_url: cert.certUrl,
          tcpa_text: consentText,
          pageUrl: window.location.href,
          referrer: document.referrer,
          [HONEYPOT_FIELD]: String(data.get(HONEYPOT_FIELD) ?? ""),
        }),
      });
      if (!response.ok) {
        setStatus({ kind: "error", message: orFallback(await messageForResponse(response)) });
        return;
      }
      form.reset();
      // A refused post's values are the fields' defaults: empty them too.
      for (const name of ["fullName", "phone", "zipCode"]) {
        const field = form.elements.namedItem(name);
        if (field instanceof HTMLInputElement) field.value = "";
      }
      setStatus({ kind: "ok" });
      pixelEvent("track", "Lead", { service: serviceSlug });
      onSubmitted(callbackWindow(new Date()), form.querySelector<HTMLElement>('[data-tf-element-role="submit"]'));
    } catch (error) {
      setStatus({ kind: "error", message: orFallback(messageForThrown(error)) });
    }
  };

  const sending = status.kind === "sending";
  const input = "w-full rounded-lg border border-slate-500 bg-white px-4 py-3 text-base text-slate-900";
  return (
    <form
      ref={formRef}
      method="post"
      action={SUBMIT_LEAD_URL}
      onSubmit={submit}
      className="flex flex-col gap-4"
      aria-describedby={`${id}-status`}
    >
      <input type="hidden" name="serviceSlug" defaultValue={serviceSlug} />
      <input type="hidden" name="tcpa_text" defaultValue={consentText} />
      <Honeypot />
      {status.kind === "refused" ? (
        <p role="alert" className="rounded-lg border-l-4 border-red-700 bg-red-50 p-4 font-bold text-red-800">
          {status.message}
        </p>
      ) : null}
      <div>
        <label htmlFor={`${id}-name`} className="mb-1 block font-bold text-slate-900">
          Full Name
        </label>
        <input
          id={`${id}-name`}
          name="fullName"
          type="text"
          required
          maxLength={100}
          autoComplete="name"
          defaultValue={values.fullName}
          className={input}
          data-first-field
        />
      </div>
      <div>
        <label htmlFor={`${id}-phone`} className="mb-1 block font-bold text-slate-900">
          Phone Number
        </label>
        <input
          id={`${id}-phone`}
          name="phone"
          type="tel"
          required
          autoComplete="tel"
          inputMode="tel"
          defaultValue={values.phone}
          className={input}
        />
      </div>
      <div>
        <label htmlFor={`${id}-zip`} className="mb-1 block font-bold text-slate-900">
          ZIP Code <span className="font-normal text-slate-600">(optional)</span>
        </label>
        <input
          id={`${id}-zip`}
          name="zipCode"
          type="text"
          autoComplete="postal-code"
          inputMode="numeric"
          maxLength={10}
          defaultValue={values.zipCode}
          className={input}
        />
      </div>
      <div className="flex items-start gap-3">
        <input
          id={`${id}-consent`}
          name="consent"
          type="checkbox"
          required
          aria-labelledby={consentId}
          className="mt-1 h-5 w-5 shrink-0 accent-blue-700"
        />
        <p id={consentId} data-tf-element-role="consent-language" className="text-sm leading-relaxed text-slate-700">
          <ConsentWording text={consentText} onLegal={onLegal} />
        </p>
      </div>
      <button
        type="submit"
        data-tf-element-role="submit"
        disabled={sending}
        className="rounded-xl bg-blue-700 px-6 py-4 text-lg font-bold text-white shadow hover:bg-blue-800 disabled:cursor-wait disabled:bg-slate-500"
      >
        {sending ? "Submitting…" : "Request Callback"}
      </button>
      <div id={`${id}-status`} aria-live="polite">
        {status.kind === "ok" ? <p className="font-bold text-green-800">{SUCCESS_MESSAGE}</p> : null}
        {status.kind === "error" ? (
          <p role="alert" className="font-bold text-red-700">
            {status.message}
          </p>
        ) : null}
      </div>
    </form>
  );
}
