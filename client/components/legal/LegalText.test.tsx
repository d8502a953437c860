import { describe, expect, it } from "vitest";
import { renderToStaticMarkup } from "react-dom/server";
import {
  LEGAL_EFFECTIVE_DATE,
  PRIVACY_SECTIONS,
  PrivacyPolicy,
  TERMS_SECTIONS,
  TermsOfService,
  type LegalProps,
} from "./LegalText";

const props: LegalProps = { brand: "RingReady", email: "info@ringready.example", phone: "(800) 555-0100" };

const docs = {
  privacy: { html: renderToStaticMarkup(<PrivacyPolicy {...props} />), sections: PRIVACY_SECTIONS, prefix: "privacy-" },
  terms: { html: renderToStaticMarkup(<TermsOfService {...props} />), sections: TERMS_SECTIONS, prefix: "terms-" },
};

/** Visible text: tags dropped, common entities decoded, whitespace collapsed. */
function textOf(html: string): string {
  return html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .replace(/ ([.,;:)])/g, "$1");
}

function headings(html: string): { id: string; text: string }[] {
  return [...html.matchAll(/<h3 id="([^"]+)"[^>]*>([^<]*)<\/h3>/g)].map((m) => ({ id: m[1], text: m[2] }));
}

function count(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

describe.each(Object.entries(docs))("%s", (_name, doc) => {
  const text = textOf(doc.html);

  it("starts with the effective and last-updated dates", () => {
    expect(LEGAL_EFFECTIVE_DATE).toBe("January 1, 2025");
    expect(doc.html.startsWith("<p")).toBe(true);
    expect(text.trim().startsWith("Effective date: January 1, 2025. Last updated: January 1, 2025.")).toBe(true);
    expect(count(text, "January 1, 2025")).toBeGreaterThanOrEqual(2);
  });

  it("renders headings in the exported order, with prefixed ids tied to their sections", () => {
    const hs = headings(doc.html);
    expect(hs.map((h) => h.text)).toEqual([...doc.sections]);
    for (const h of hs) {
      expect(h.id.startsWith(doc.prefix)).toBe(true);
      expect(doc.html).toContain(`<section aria-labelledby="${h.id}">`);
    }
    expect(count(doc.html, "<section ")).toBe(doc.sections.length);
  });

  it("has no title heading, placeholders, or leftover braces", () => {
    expect(doc.html).not.toMatch(/<h[12]/);
    expect(text).not.toMatch(/TODO|lorem|\[[^\]]*\]|\{brand\}|undefined|null/i);
    expect(text).toContain("RingReady");
  });

  it("links the email and shows the phone", () => {
    expect(doc.html).toContain(
      '<a href="mailto:info@ringready.example" class="font-semibold text-blue-800 underline">info@ringready.example</a>',
    );
    expect(text).toContain("(800) 555-0100");
    expect(doc.html).toContain('href="tel:+18005550100"');
  });

  it("states the retention period and mentions recording", () => {
    expect(text).toContain("7 years");
    expect(text).toMatch(/recorded/);
  });
});

describe("heading ids", () => {
  it("are unique across both documents", () => {
    const ids = [...headings(docs.privacy.html), ...headings(docs.terms.html)].map((h) => h.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe("privacy policy content", () => {
  const text = textOf(docs.privacy.html);
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
  const text = textOf(docs.terms.html);
  it("contains the required constants", () => {
    expect(text).toContain("$100");
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
