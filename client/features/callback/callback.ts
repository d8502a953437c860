// The callback form's logic, kept free of React so it can be tested alone (docs/product.md,
// The callback request): the certificate token wait, the record-token polling and the error
// messages.

export const SUBMIT_LEAD_URL = "/.netlify/functions/submit-lead";
export const RECORD_TOKEN_URL = "/.netlify/functions/record-token";
export const TOKEN_WAIT_MS = 2500;
export const TOKEN_WAIT_POLL_MS = 100;
export const TOKEN_RECORD_POLL_MS = 500;
export const TOKEN_RECORD_MAX_TRIES = 40;
export const SUCCESS_MESSAGE = "Thanks! We received your request and will call you shortly.";
export const FALLBACK_ERROR = "Submission failed. Please try again.";
/** Field names the certification script adds to the form. */
export const CERT_URL_FIELD = "xxTrustedFormCertUrl";
export const PING_URL_FIELD = "xxTrustedFormPingUrl";

export interface Certificate {
  token: string;
  ping: string;
  certUrl: string;
}

export const NO_CERTIFICATE: Certificate = { token: "", ping: "", certUrl: "" };

/** The certificate from the script's hidden fields; the token is the cert URL's last segment. */
export function readCertificate(certUrl: string | null | undefined, ping: string | null | undefined): Certificate | null {
  const url = (certUrl ?? "").trim();
  if (!url) return null;
  const token =
    url
      .replace(/[?#].*$/, "")
      .split("/")
      .filter(Boolean)
      .pop() ?? "";
  if (!token) return null;
  return { token, ping: (ping ?? "").trim(), certUrl: url };
}

export type Sleep = (ms: number) => Promise<void>;
export const sleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Calls `probe` now and then every `intervalMs`, at most `tries` times in all, until it
 * gives a value. Resolves to that value, or null when the tries run out. */
export async function poll<T>(probe: () => T | null, intervalMs: number, tries: number, wait: Sleep = sleep): Promise<T | null> {
  for (let i = 0; i < tries; i++) {
    const value = probe();
    if (value !== null) return value;
    if (i < tries - 1) await wait(intervalMs);
  }
  return null;
}

/** The certificate to send with a lead. With the certification script off there is none to
 * wait for: at once, empty strings. With it on: the token as soon as it is there, looking
 * every 100 ms (and whenever `wait` ends early), for at most 2500 ms; then go on without it.
 * The wait is a limit, never a delay. `now` is a clock in milliseconds. */
export async function waitForCertificate(
  probe: () => Certificate | null,
  certification: boolean,
  wait: Sleep = sleep,
  now: () => number = () => performance.now(),
): Promise<Certificate> {
  if (!certification) return probe() ?? NO_CERTIFICATE;
  const deadline = now() + TOKEN_WAIT_MS;
  for (;;) {
    const cert = probe();
    if (cert) return cert;
    const left = deadline - now();
    if (left <= 0) return NO_CERTIFICATE;
    await wait(Math.min(TOKEN_WAIT_POLL_MS, left));
  }
}

/** A `Sleep` that also ends as soon as an element is added to or removed from `parent` (the
 * certification script appends its fields to the form), so the token is seen when it comes
 * rather than at the next look. */
export function wakeOnChildren(parent: Node): Sleep {
  return (ms) =>
    new Promise((resolve) => {
      const observer = new MutationObserver(() => done());
      const timer = setTimeout(() => done(), ms);
      function done() {
        clearTimeout(timer);
        observer.disconnect();
        resolve();
      }
      observer.observe(parent, { childList: true });
    });
}

/** When the token appears, POST it once to record-token: look every 500 ms, at most 40
 * times; errors are ignored. Resolves to true when a token was sent. */
export async function recordTokenWhenReady(
  probe: () => Certificate | null,
  serviceSlug: string,
  send: typeof fetch = fetch,
  wait: Sleep = sleep,
): Promise<boolean> {
  const cert = await poll(probe, TOKEN_RECORD_POLL_MS, TOKEN_RECORD_MAX_TRIES, wait);
  if (!cert) return false;
  try {
    await send(RECORD_TOKEN_URL, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token: cert.token, ping: cert.ping, serviceSlug, certUrl: cert.certUrl }),
    });
  } catch {
    // Ignored, as the spec says: the lead itself carries the certificate too.
  }
  return true;
}

/** The red message for an answer that was not OK (docs/product.md, "The callback request"). */
export async function messageForResponse(response: Response): Promise<string> {
  const type = response.headers.get("Content-Type") ?? "";
  if (type.includes("application/json")) {
    try {
      const data: unknown = await response.json();
      const error = typeof data === "object" && data !== null && "error" in data ? (data as { error: unknown }).error : undefined;
      return typeof error === "string" && error.trim() ? error : "Submit failed";
    } catch {
      // A body that claims JSON but is not: treat as non-JSON below.
    }
  }
  const text = `${response.status} ${response.statusText}`.trim();
  return text || FALLBACK_ERROR;
}

/** The red message when the request itself threw (docs/product.md, "The callback request"). */
export function messageForThrown(error: unknown): string {
  const message = error instanceof Error ? error.message : typeof error === "string" ? error : "";
  return message.trim() ? message : "Something went wrong";
}

/** Any message, or the fallback when it is empty. */
export function orFallback(message: string | null | undefined): string {
  return message?.trim() ? message : FALLBACK_ERROR;
}
