import { PRIVACY_SECTIONS, TERMS_SECTIONS } from "../client/features/legal/legal";
import { expect, test } from "./fixtures";
import { expectFocusTrapped } from "./support/dialog";
import { callbackForm, expectHydrated, footer, press } from "./support/service";

// The legal modals (Privacy Policy, Terms of Service) on the service landing page: opened from
// the footer and from the consent wording, their full text, focus, and closing.
// docs/product.md, "Legal texts".

test.describe("legal modals", { tag: "@one-width" }, () => {
  const docs = [
    { title: "Privacy Policy", sections: PRIVACY_SECTIONS, facts: ["7 years"] },
    { title: "Terms of Service", sections: TERMS_SECTIONS, facts: ["7 years", "$100", "Erie County, Pennsylvania"] },
  ] as const;

  for (const doc of docs) {
    for (const from of ["footer", "consent wording"] as const) {
      test(`${doc.title} opens from the ${from}, with its full text, and closes`, async ({ page }) => {
        await page.goto("/roofing");
        await expectHydrated(page);
        const opener =
          from === "footer"
            ? footer(page).getByRole("link", { name: doc.title, exact: true })
            : callbackForm(page).consentText.getByRole("button", { name: doc.title, exact: true });
        await press(opener);
        const dialog = page.getByRole("dialog", { name: doc.title, exact: true });
        await expect(dialog).toBeVisible();
        expect(await dialog.evaluate((d) => d.matches(":modal"))).toBe(true);
        await expect(dialog.getByRole("heading", { level: 2 })).toHaveText(doc.title);

        // The text (a separate chunk) arrives, with the sections in order.
        await expect(dialog.getByRole("heading", { level: 3 })).toHaveText([...doc.sections]);
        expect(doc.sections.length).toBe(doc.title === "Privacy Policy" ? 8 : 11);
        await expect(dialog).toContainText("Effective date: January 1, 2025");
        await expect(dialog).toContainText("Last updated: January 1, 2025");
        for (const fact of doc.facts) await expect(dialog).toContainText(fact);

        await expect(dialog.getByRole("button", { name: "Close" })).toBeFocused();
        await expectFocusTrapped(page, dialog);

        if (from === "footer") await press(dialog.getByRole("button", { name: "Close" }));
        else await page.keyboard.press("Escape");
        await expect(dialog).toHaveCount(0);
        await expect(opener, "focus returns to the control that opened it").toBeFocused();
        expect(new URL(page.url()).pathname, "the modal, not the page, opened").toBe("/roofing");
      });
    }
  }

  test("close button and Escape close either document; the other one opens after", async ({ page }) => {
    await page.goto("/electrician");
    await expectHydrated(page);
    const privacy = page.getByRole("dialog", { name: "Privacy Policy", exact: true });
    const terms = page.getByRole("dialog", { name: "Terms of Service", exact: true });
    await press(footer(page).getByRole("link", { name: "Privacy Policy" }));
    await expect(privacy).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(privacy).toHaveCount(0);
    await press(footer(page).getByRole("link", { name: "Terms of Service" }));
    await expect(terms).toBeVisible();
    await press(terms.getByRole("button", { name: "Close" }));
    await expect(terms).toHaveCount(0);
    await expect(page.getByRole("dialog")).toHaveCount(0);
  });

  test("the close button stays put while the text loads, so a press as it arrives still closes", async ({ page }) => {
    // Hold the text back until the dialog's loading state has been measured.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/legal/terms.html", async (route) => {
      await held;
      await route.continue();
    });
    await page.goto("/electrician");
    await expectHydrated(page);
    const terms = page.getByRole("dialog", { name: "Terms of Service", exact: true });
    const close = terms.getByRole("button", { name: "Close" });
    await press(footer(page).getByRole("link", { name: "Terms of Service" }));
    await expect(terms).toContainText("Loading…");
    const loading = await close.boundingBox();
    release();
    await expect(terms.getByRole("heading", { level: 3 }).first()).toBeVisible();
    expect(await close.boundingBox(), "where the close button was while the text loaded").toEqual(loading);
    await press(close);
    await expect(terms).toHaveCount(0);
  });
});
