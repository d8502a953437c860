import { randomBytes } from "node:crypto";
import type { Page, Request } from "@playwright/test";

// A local stand-in for TrustedForm's certification script with the same contract
// (docs/product.md, "The callback request"): some time after it loads it adds two hidden inputs to every form on the
// page, the certificate URL (https://cert.trustedform.com/<token>) and the ping URL, named
// by the `field` and `ping_field` parameters of its own URL. Tests never load the real one.

export interface Certificate {
  token: string;
  certUrl: string;
  ping: string;
}

export function newCertificate(): Certificate {
  const token = randomBytes(20).toString("hex");
  return { token, certUrl: `https://cert.trustedform.com/${token}`, ping: `https://ping.trustedform.com/${token}` };
}

/** Set on `window` once the stand-in has run (its fields come `delayMs` later), so a test
 * can move a stopped clock knowing the script's timer is set. */
export const STAND_IN_RAN = "__trustedFormStandInRan";

/** The script's source: adds `cert`'s fields `delayMs` after it runs, or nothing when `cert`
 * is null. */
export function standInScript(cert: Certificate | null, delayMs: number): string {
  if (!cert) return `/* stand-in certification script: never certifies */\nwindow.${STAND_IN_RAN} = true;\n`;
  return `(function () {
  var src = document.currentScript ? document.currentScript.src : "";
  var params = new URL(src, location.href).searchParams;
  var certField = params.get("field") || "xxTrustedFormCertUrl";
  var pingField = params.get("ping_field") || "xxTrustedFormPingUrl";
  var cert = ${JSON.stringify(cert)};
  function add(form, name, value) {
    var input = document.createElement("input");
    input.type = "hidden";
    input.name = name;
    input.value = value;
    form.appendChild(input);
  }
  setTimeout(function () {
    var forms = document.querySelectorAll("form");
    for (var i = 0; i < forms.length; i++) {
      add(forms[i], certField, cert.certUrl);
      add(forms[i], pingField, cert.ping);
    }
  }, ${delayMs});
  window.${STAND_IN_RAN} = true;
})();
`;
}

export interface StandIn {
  /** URLs the page asked for on TrustedForm's hosts. */
  requested: string[];
  /** For `hold: true`: lets the held script answer go out. */
  release: () => void;
}

/** Serves the stand-in for every request to TrustedForm's hosts; its fields come `delayMs`
 * after it runs (600 by default; `make bench` uses 300). With `hold`, the answer waits until
 * `release()` (so a test can act before the script even runs). */
export async function serveStandIn(page: Page, options: { cert: Certificate | null; delayMs?: number; hold?: boolean }): Promise<StandIn> {
  let release = () => {};
  const released = options.hold ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
  const requested: string[] = [];
  const body = standInScript(options.cert, options.delayMs ?? 600);
  await page.route(/^https:\/\/(api|cdn)\.trustedform\.com\//, async (route) => {
    requested.push(route.request().url());
    await released;
    await route.fulfill({ status: 200, contentType: "application/javascript; charset=utf-8", body });
  });
  return { requested, release: () => release() };
}

/** Every POST the page makes to `path`, recorded as it happens. */
export function recordPosts(page: Page, path: string): Request[] {
  const posts: Request[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === path) posts.push(request);
  });
  return posts;
}
