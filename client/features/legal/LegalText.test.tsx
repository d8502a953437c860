import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { LegalText } from "./LegalText";
import { PRIVACY_SECTIONS, TERMS_SECTIONS } from "./legal";

// The legal texts' content files (catalogue/legal/*.md) against what the product requires
// of them; the server's rendering of them is tested in server/src/pages/legal.rs.

const legalDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "catalogue", "legal");
const read = (name: string): string => readFileSync(join(legalDir, name), "utf8");

const docs = {
  privacy: { markdown: read("privacy.md"), sections: PRIVACY_SECTIONS },
  terms: { markdown: read("terms.md"), sections: TERMS_SECTIONS },
};

/** Prose with the Markdown marks and link targets dropped, white space folded. */
const textOf = (markdown: string): string =>
  markdown
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[*#]/g, "")
    .replace(/\s+/g, " ");

describe.each(Object.entries(docs))("%s", (_name, doc) => {
  const text = textOf(doc.markdown);

  it("starts with the effective and last-updated dates", () => {
    expect(doc.markdown.startsWith("Effective date: January 1, 2025. Last updated: January 1, 2025.\n")).toBe(true);
  });

  it("has the required sections, in order, as its only headings", () => {
    const headings = [...doc.markdown.matchAll(/^(#+) (.*)$/gm)].map((m) => ({ level: m[1], text: m[2] }));
    expect(headings.map((h) => h.text)).toEqual([...doc.sections]);
    expect(new Set(headings.map((h) => h.level))).toEqual(new Set(["##"]));
  });

  it("uses only the known placeholders, and no filler", () => {
    const placeholders = new Set(doc.markdown.match(/\{[^}]*\}/g));
    for (const p of placeholders) expect(["{brand}", "{email}", "{phone}", "{tel}"]).toContain(p);
    expect(placeholders.has("{brand}")).toBe(true);
    expect(text).not.toMatch(/TODO|lorem|undefined|RingReady/i);
  });

  it("links the email and the phone number", () => {
    expect(doc.markdown).toContain("[{email}](mailto:{email})");
    expect(doc.markdown).toContain("[{phone}](tel:{tel})");
  });

  it("states the retention period and mentions recording", () => {
    expect(text).toContain("7 years");
    expect(text).toMatch(/recorded/);
  });
});

describe("privacy policy content", () => {
  const text = textOf(docs.privacy.markdown);
  it("covers opt-out, state rights, do-not-sell/share and children", () => {
    expect(text).toContain("STOP");
    expect(text).toMatch(/delete/);
    expect(text).toMatch(/correct/);
    expect(text).toContain("Do Not Sell or Share");
    expect(text).toContain("under 13");
    expect(text).toContain("TrustedForm");
    expect(text).toContain("Meta Pixel");
  });
});

describe("terms of service content", () => {
  const text = textOf(docs.terms.markdown);
  it("contains the required constants", () => {
    expect(text).toContain("$100 per incident");
    expect(text).toContain("Erie County, Pennsylvania");
    expect(text).toMatch(/Pennsylvania law|laws of the Commonwealth of Pennsylvania/);
    expect(text).toContain("may be recorded and monitored for quality assurance, training, compliance, and dispute resolution");
    expect(text).toContain("up to 7 years");
  });
  it("covers arbitration terms", () => {
    expect(text).toMatch(/class action/i);
    expect(text).toMatch(/small-claims court/);
    expect(text).toMatch(/within 30 days/);
    expect(text).toMatch(/independent businesses/);
    expect(text).toMatch(/free for consumers/);
  });
});

describe("LegalText", () => {
  it("shows the server's HTML as it is, inside its styled container", () => {
    const html = renderToStaticMarkup(<LegalText html="<h2>Fees</h2><p>None.</p>" />);
    expect(html).toMatch(/^<div class="[^"]*\[&amp;_h2\]:font-bold[^"]*"><h2>Fees<\/h2><p>None.<\/p><\/div>$/);
  });
});
