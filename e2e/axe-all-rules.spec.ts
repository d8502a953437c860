import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { ALL_RULES, axeViolations, describeViolations } from "./support/axe";
import { SERVER_DOCUMENTS, type ServerDocument } from "./support/documents";
import { repoRoot } from "./support/env";
import { expectHydrated, isPhoneProject } from "./support/service";

// axe with every rule it has, best practices included (`region`, `landmark-*`,
// `heading-order`…), on every server-rendered document (e2e/support/documents.ts) at both
// widths (the phone and desktop projects) and on every service page at one of them (below), as a visitor sees
// each one: after its islands have hydrated. The dialogs and overlays are checked where
// they are tested (accessibility, home-overlays).

test.use({ bypassCSP: true }); // axe is injected as a script, which the pages' CSP refuses

async function expectNoViolations(page: Page, what: string): Promise<void> {
  const { violations, passes } = await axeViolations(page, ALL_RULES);
  expect(passes, "axe ran its rules").toBeGreaterThan(10);
  expect(violations, `axe violations on ${what}:\n${describeViolations(violations)}`).toEqual([]);
}

/** Opens the document as a browser would: a GET, or a real form post from the site. */
async function open(page: Page, doc: ServerDocument): Promise<void> {
  if (!doc.form) {
    const response = await page.goto(doc.url);
    expect(response?.status(), doc.url).toBe(doc.status);
  } else {
    await page.goto("/privacy");
    const answer = page.waitForResponse((r) => r.request().method() === "POST" && r.url().endsWith(doc.url));
    await page.evaluate(
      ({ action, fields }) => {
        const form = document.createElement("form");
        form.method = "post";
        form.action = action;
        for (const [name, value] of Object.entries(fields)) {
          const input = document.createElement("input");
          input.type = "hidden";
          input.name = name;
          input.value = value;
          form.append(input);
        }
        document.body.append(form);
        form.submit();
      },
      { action: doc.url, fields: doc.form },
    );
    expect((await answer).status(), doc.name).toBe(doc.status);
    // The answer is a new document at the form's address (the page it was sent from is /privacy).
    await page.waitForURL((url) => url.pathname === doc.url);
    await page.waitForLoadState("load");
  }
  if (doc.hydrates) await expectHydrated(page);
}

for (const doc of SERVER_DOCUMENTS.filter((d) => !d.skipAxe)) {
  test(`axe, every rule: ${doc.name} (${doc.url})`, async ({ page, consoleProblems }) => {
    // Chromium logs the error status of the document itself; that one is expected.
    if (doc.status >= 400)
      consoleProblems.allow(new RegExp(`^Failed to load resource: the server responded with a status of ${doc.status}`));
    await open(page, doc);
    await expectNoViolations(page, doc.name);
  });
}

const slugs = (JSON.parse(readFileSync(join(repoRoot, "catalogue", "services.json"), "utf8")) as Array<{ slug: string }>).map(
  (s) => s.slug,
);

// The service pages are one component over the catalogue's data: each is scanned at one of
// the two widths, alternately, so that both widths see half the pages and every page is
// scanned once (the layout gate looks at each of them at eight widths).
test.describe("every service page", () => {
  for (const [i, slug] of slugs.entries()) {
    test(`axe, every rule: /${slug}`, async ({ page }, testInfo) => {
      test.skip(isPhoneProject(testInfo) !== (i % 2 === 1), "scanned at the other width");
      await page.goto(`/${slug}`);
      await expectHydrated(page);
      await expectNoViolations(page, `/${slug}`);
    });
  }
});
