import { describe, expect, it } from "vitest";
import vectorFile from "../../catalogue/cases/phones.json";
import { formatPhone, isRegistrationPhone, parseUsPhone, telHref } from "./phone";

/** catalogue/cases/phones.json, which server/src/phone.rs reads too. */
interface PhoneVectors {
  visitor: { input: string; e164: string | null; display?: string; tel?: string; why: string }[];
  configured: { digits: string; valid: boolean; display?: string; tel?: string; why: string }[];
}
const vectors: PhoneVectors = vectorFile;

/** A test name that shows white space other than the space, and anything not ASCII, as \u escapes. */
const shown = (text: string) => JSON.stringify(text).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

describe("parseUsPhone against the shared vectors (visitor numbers)", () => {
  it("has them all", () => {
    expect(vectors.visitor.length).toBeGreaterThanOrEqual(40);
  });
  for (const c of vectors.visitor) {
    it(`${shown(c.input)}: ${c.why}`, () => {
      expect(parseUsPhone(c.input)).toBe(c.e164);
      if (c.e164 === null) {
        expect(c.display ?? c.tel).toBeUndefined();
      } else {
        expect(formatPhone(c.e164)).toBe(c.display);
        expect(telHref(c.e164)).toBe(c.tel);
      }
    });
  }
});

describe("formatPhone and telHref against the shared vectors (configured numbers)", () => {
  for (const c of vectors.configured) {
    const name = `${shown(c.digits)}: ${c.why}`;
    if (!c.valid) {
      it.skip(`${name} (skipped: the server refuses it at start; the browser only ever shows numbers the server accepted)`, () => {});
      continue;
    }
    it(name, () => {
      expect(formatPhone(c.digits)).toBe(c.display);
      expect(telHref(c.digits)).toBe(c.tel);
    });
  }
});

describe("formatPhone", () => {
  it("formats ten digits as (xxx) xxx-xxxx", () => {
    expect(formatPhone("8005550100")).toBe("(800) 555-0100");
  });
  it("drops a leading country code", () => {
    expect(formatPhone("+18005550142")).toBe("(800) 555-0142");
    expect(formatPhone("1-800-555-0177")).toBe("(800) 555-0177");
  });
  it("leaves anything else as given", () => {
    expect(formatPhone(" 555-01 ")).toBe("555-01");
    expect(formatPhone("")).toBe("");
  });
});

describe("telHref", () => {
  it("gives E.164 for North American numbers", () => {
    expect(telHref("(800) 555-0100")).toBe("tel:+18005550100");
    expect(telHref("18005550100")).toBe("tel:+18005550100");
  });
  it("keeps digits and plus for others", () => {
    expect(telHref("+44 20 7946 0000")).toBe("tel:+442079460000");
  });
});

describe("isRegistrationPhone against the shared vectors (registration forms)", () => {
  const cases: { input: string; valid: boolean; why: string }[] = vectorFile.registration;
  it("has them all", () => {
    expect(cases.length).toBeGreaterThanOrEqual(20);
  });
  for (const c of cases) {
    it(`${shown(c.input)}: ${c.why}`, () => {
      expect(isRegistrationPhone(c.input)).toBe(c.valid);
    });
  }
});
