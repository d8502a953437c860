import { describe, expect, it, vi } from "vitest";
import {
  FALLBACK_ERROR,
  messageForResponse,
  messageForThrown,
  NO_CERTIFICATE,
  orFallback,
  poll,
  readCertificate,
  recordTokenWhenReady,
  waitForCertificate,
} from "./callback";

const noWait = () => Promise.resolve();

describe("readCertificate", () => {
  it("takes the token from the certificate URL", () => {
    expect(readCertificate("https://cert.trustedform.com/abc123", " https://ping.trustedform.com/abc123 ")).toEqual({
      token: "abc123",
      ping: "https://ping.trustedform.com/abc123",
      certUrl: "https://cert.trustedform.com/abc123",
    });
  });
  it("gives null while the field is empty", () => {
    expect(readCertificate("", "")).toBeNull();
    expect(readCertificate(null, null)).toBeNull();
  });
});

describe("poll", () => {
  it("stops at the first value and counts its tries", async () => {
    const probe = vi.fn<() => number | null>().mockReturnValueOnce(null).mockReturnValueOnce(null).mockReturnValue(7);
    const waits: number[] = [];
    expect(await poll(probe, 100, 5, async (ms) => void waits.push(ms))).toBe(7);
    expect(probe).toHaveBeenCalledTimes(3);
    expect(waits).toEqual([100, 100]);
  });
  it("gives up after the last try without a final wait", async () => {
    const waits: number[] = [];
    expect(
      await poll(
        () => null,
        500,
        40,
        async (ms) => void waits.push(ms),
      ),
    ).toBeNull();
    expect(waits.length).toBe(39);
  });
});

describe("waitForCertificate", () => {
  /** A clock that moves only when the form waits. */
  function fakeTime() {
    let t = 0;
    const waits: number[] = [];
    const wait = async (ms: number) => {
      waits.push(ms);
      t += ms;
    };
    return { waits, now: () => t, wait };
  }
  const cert = readCertificate("https://cert.trustedform.com/t", "");

  it("with the certification script off, goes on at once with empty strings: no wait at all", async () => {
    const time = fakeTime();
    const probe = vi.fn(() => null);
    expect(await waitForCertificate(probe, false, time.wait, time.now)).toEqual(NO_CERTIFICATE);
    expect(time.waits).toEqual([]);
  });
  it("with it on, looks every 100 ms for up to 2500 ms, then goes on with empty strings", async () => {
    const time = fakeTime();
    const probe = vi.fn(() => null);
    expect(await waitForCertificate(probe, true, time.wait, time.now)).toEqual(NO_CERTIFICATE);
    expect(time.now()).toBe(2500);
    expect(time.waits.every((ms) => ms === 100)).toBe(true);
    expect(probe).toHaveBeenCalledTimes(26);
  });
  it("returns as soon as the token is there, without waiting out the 2500 ms", async () => {
    const time = fakeTime();
    let n = 0;
    const found = await waitForCertificate(() => (++n === 4 ? cert : null), true, time.wait, time.now);
    expect(found.token).toBe("t");
    expect(time.now()).toBe(300);
  });
  it("looks again whenever the wait ends early, and still stops at 2500 ms", async () => {
    // A wait woken after 1 ms each time (the form changing) looks 2500 times, not 26.
    let t = 0;
    const probe = vi.fn(() => null);
    expect(
      await waitForCertificate(
        probe,
        true,
        async () => {
          t += 1;
        },
        () => t,
      ),
    ).toEqual(NO_CERTIFICATE);
    expect(t).toBe(2500);
    expect(probe).toHaveBeenCalledTimes(2501);
  });
  it("sends a token already there at once", async () => {
    const time = fakeTime();
    expect(await waitForCertificate(() => cert, true, time.wait, time.now)).toBe(cert);
    expect(time.waits).toEqual([]);
  });
});

describe("recordTokenWhenReady", () => {
  it("posts the token once when it appears", async () => {
    let n = 0;
    const send = vi.fn(async () => new Response(null, { status: 204 }));
    const sent = await recordTokenWhenReady(
      () => (++n === 3 ? readCertificate("https://cert.trustedform.com/tok", "https://ping/x") : null),
      "hvac",
      send,
      noWait,
    );
    expect(sent).toBe(true);
    expect(send).toHaveBeenCalledTimes(1);
    const [url, init] = send.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/.netlify/functions/record-token");
    expect(JSON.parse(String(init.body))).toEqual({
      token: "tok",
      ping: "https://ping/x",
      serviceSlug: "hvac",
      certUrl: "https://cert.trustedform.com/tok",
    });
  });
  it("tries 40 times every 500 ms and sends nothing without a token", async () => {
    let elapsed = 0;
    const send = vi.fn(async () => new Response(null));
    expect(
      await recordTokenWhenReady(
        () => null,
        "hvac",
        send,
        async (ms) => {
          elapsed += ms;
        },
      ),
    ).toBe(false);
    expect(send).not.toHaveBeenCalled();
    expect(elapsed).toBe(39 * 500);
  });
  it("ignores errors", async () => {
    const send = vi.fn(async () => {
      throw new TypeError("Failed to fetch");
    });
    await expect(recordTokenWhenReady(() => readCertificate("https://cert.trustedform.com/a", ""), "hvac", send, noWait)).resolves.toBe(
      true,
    );
  });
});

describe("error messages (docs/product.md, 'The callback request')", () => {
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
  it("uses the JSON answer's error field", async () => {
    expect(await messageForResponse(json(400, { error: "Please enter your full name." }))).toBe("Please enter your full name.");
  });
  it("says 'Submit failed' when a JSON answer has no error field", async () => {
    expect(await messageForResponse(json(500, { message: "x" }))).toBe("Submit failed");
    expect(await messageForResponse(json(500, null))).toBe("Submit failed");
  });
  it("gives the status code and text for a non-JSON answer", async () => {
    expect(
      await messageForResponse(
        new Response("<html>", { status: 502, statusText: "Bad Gateway", headers: { "Content-Type": "text/html" } }),
      ),
    ).toBe("502 Bad Gateway");
  });
  it("gives the thrown error's message, or 'Something went wrong'", () => {
    expect(messageForThrown(new TypeError("Failed to fetch"))).toBe("Failed to fetch");
    expect(messageForThrown(new Error(""))).toBe("Something went wrong");
    expect(messageForThrown(undefined)).toBe("Something went wrong");
  });
  it("falls back to 'Submission failed. Please try again.'", () => {
    expect(orFallback("")).toBe(FALLBACK_ERROR);
    expect(orFallback("  ")).toBe(FALLBACK_ERROR);
    expect(orFallback("x")).toBe("x");
  });
});
