import { expect, test } from "./fixtures";
import { PIXEL_ID, PIXEL_URL } from "./support/env";
import { hydrate } from "./support/hydrate";

// The ad pixel, on a server where it is switched on (PIXEL_ENABLED, PIXEL_ID). The real
// script is never loaded: its URL is answered with an empty script, so the page's own queue
// (window.fbq.queue) keeps every event and the test can read them.

test("with the pixel on, its host is in the CSP and a call click is recorded through it", { tag: "@one-width" }, async ({ page }) => {
  await page.route("https://connect.facebook.net/**", (route) =>
    route.fulfill({ status: 200, contentType: "text/javascript", body: "/* stand-in pixel */" }),
  );
  const response = await page.goto(`${PIXEL_URL}/roofing`);
  const csp = response?.headers()["content-security-policy"] ?? "";
  expect(csp).toContain("https://connect.facebook.net");
  expect(csp).not.toContain("trustedform");
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");

  const queue = () => page.evaluate(() => ((window as unknown as { fbq?: { queue?: unknown[][] } }).fbq?.queue ?? []) as unknown[][]);
  await expect.poll(queue).toEqual(
    expect.arrayContaining([
      ["init", PIXEL_ID],
      ["track", "PageView"],
    ]),
  );

  // Keep the browser on the page: a tel: link would hand off to the phone app.
  await page.evaluate(() => document.addEventListener("click", (e) => e.preventDefault()));
  const link = page.locator('a[href^="tel:"]:visible').first();
  const location = await link.getAttribute("data-track-location");
  await link.click();
  await expect.poll(queue).toContainEqual(["trackCustom", "call_click", { service: "roofing", location }]);
});

test("without the pixel switch nothing loads from its host", { tag: "@one-width" }, async ({ page }) => {
  const thirdParty: string[] = [];
  page.on("request", (r) => {
    if (!r.url().startsWith("http://127.0.0.1")) thirdParty.push(r.url());
  });
  const response = await page.goto("/roofing");
  expect(response?.headers()["content-security-policy"] ?? "").not.toContain("facebook");
  await hydrate(page);
  expect(await page.evaluate(() => "fbq" in window)).toBe(false);
  expect(thirdParty).toEqual([]);
});
