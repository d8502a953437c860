// Third-party scripts, each loaded only when its switch is on in configuration (and then
// allowed by the CSP): the TrustedForm consent certificate and the ad pixel.

import { CERT_URL_FIELD, PING_URL_FIELD } from "../callback/callback";
import { type Fbq, pixelEvent } from "./pixel";

function addScript(src: string) {
  const script = document.createElement("script");
  script.async = true;
  script.src = src;
  document.head.appendChild(script);
}

/** TrustedForm's script; it adds the certificate fields to the form on the page. */
export function loadTrustedForm() {
  const params = new URLSearchParams({
    field: CERT_URL_FIELD,
    ping_field: PING_URL_FIELD,
    use_tagged_consent: "true",
    l: `${Date.now()}${Math.random()}`,
  });
  addScript(`https://api.trustedform.com/trustedform.js?${params.toString()}`);
}

/** The Meta pixel, with a queue so events sent before it loads are kept. Not loaded for a
 * browser that sends the Global Privacy Control signal (the Privacy Policy promises this). */
export function loadPixel(pixelId: string) {
  if (window.fbq || (navigator as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl === true) return;
  const queue: unknown[][] = [];
  const fbq: Fbq = (...args: unknown[]) => {
    queue.push(args);
  };
  fbq.queue = queue;
  fbq.loaded = true;
  fbq.version = "2.0";
  window.fbq = fbq;
  window._fbq = fbq;
  addScript("https://connect.facebook.net/en_US/fbevents.js");
  fbq("init", pixelId);
  fbq("track", "PageView");
}

/** Records every click on a tracked call link (data-track-event="call_click"). */
export function installCallTracking() {
  document.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target.closest<HTMLElement>("a[data-track-event]") : null;
    if (!target) return;
    pixelEvent("trackCustom", target.dataset.trackEvent ?? "call_click", {
      service: target.dataset.trackService ?? "",
      location: target.dataset.trackLocation ?? "",
    });
  });
}
