import { describe, expect, it, vi } from "vitest";
import {
  AFFILIATE_VIEW_MODE_KEY,
  CLEAR_VIEW_MODE_WARNING,
  clearAffiliateViewMode,
  DEFAULT_PREFERENCES,
  readPreferences,
  readViewMode,
  savePreferences,
  saveViewMode,
  settlePreferences,
  USER_PREFERENCES_KEY,
} from "./preferences";

/** A Map behind the Storage methods the module uses. */
function memory(entries: [string, string][] = []) {
  const store = new Map(entries);
  const storage = {
    getItem: (key: string) => store.get(key) ?? null,
    setItem: (key: string, value: string) => void store.set(key, value),
    removeItem: (key: string) => void store.delete(key),
  };
  return { store, source: () => storage };
}

const refusing = () => {
  throw new Error("SecurityError");
};

describe("clearAffiliateViewMode", () => {
  it("removes the affiliateViewMode key", () => {
    const { store, source } = memory([
      [AFFILIATE_VIEW_MODE_KEY, "grid"],
      ["theme", "light"],
    ]);
    const warn = vi.fn();
    clearAffiliateViewMode(source, warn);
    expect(store.has(AFFILIATE_VIEW_MODE_KEY)).toBe(false);
    expect(store.get("theme")).toBe("light");
    expect(warn).not.toHaveBeenCalled();
  });

  it("only logs the warning when storage refuses", () => {
    const warn = vi.fn();
    const denied = new Error("SecurityError");
    expect(() =>
      clearAffiliateViewMode(() => {
        throw denied;
      }, warn),
    ).not.toThrow();
    expect(warn).toHaveBeenCalledWith(CLEAR_VIEW_MODE_WARNING, denied);
  });
});

describe("the affiliate view mode", () => {
  it("is list by default, and when something else is stored", () => {
    expect(readViewMode(memory().source)).toBe("list");
    expect(readViewMode(memory([[AFFILIATE_VIEW_MODE_KEY, "tiles"]]).source)).toBe("list");
  });

  it("is saved and read back", () => {
    const { store, source } = memory();
    saveViewMode("grid", source);
    expect(store.get(AFFILIATE_VIEW_MODE_KEY)).toBe("grid");
    expect(readViewMode(source)).toBe("grid");
  });

  it("falls back to list, with a warning only, when storage refuses", () => {
    const warn = vi.fn();
    expect(readViewMode(refusing, warn)).toBe("list");
    expect(() => saveViewMode("grid", refusing, warn)).not.toThrow();
    expect(warn).toHaveBeenCalledTimes(2);
  });
});

describe("the user preferences", () => {
  it("default to theme light and language en", () => {
    expect(DEFAULT_PREFERENCES).toEqual({ theme: "light", language: "en" });
    expect(readPreferences(memory().source)).toEqual({ theme: "light", language: "en" });
  });

  it("are stored as JSON under one key, a change keeping the other value", () => {
    const { store, source } = memory();
    expect(savePreferences({ theme: "dark" }, source)).toEqual({ theme: "dark", language: "en" });
    expect(JSON.parse(store.get(USER_PREFERENCES_KEY) ?? "")).toEqual({ theme: "dark", language: "en" });
    savePreferences({ language: "es" }, source);
    expect(readPreferences(source)).toEqual({ theme: "dark", language: "es" });
  });

  it("fall back field by field on broken or foreign values", () => {
    const warn = vi.fn();
    expect(readPreferences(memory([[USER_PREFERENCES_KEY, "{not json"]]).source, warn)).toEqual(DEFAULT_PREFERENCES);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(readPreferences(memory([[USER_PREFERENCES_KEY, '{"theme":7,"language":"fr"}']]).source)).toEqual({
      theme: "light",
      language: "fr",
    });
    expect(readPreferences(memory([[USER_PREFERENCES_KEY, "null"]]).source)).toEqual(DEFAULT_PREFERENCES);
  });

  it("never throw when storage refuses", () => {
    const warn = vi.fn();
    expect(readPreferences(refusing, warn)).toEqual(DEFAULT_PREFERENCES);
    expect(savePreferences({ theme: "dark" }, refusing, warn)).toEqual({ theme: "dark", language: "en" });
    expect(warn).toHaveBeenCalled();
  });
});

describe("settlePreferences (once the page is live)", () => {
  /** What the function touches of <html>. */
  const html = () =>
    ({ dataset: {} as Record<string, string>, lang: "en" }) as unknown as HTMLElement & { dataset: Record<string, string> };

  it("stores the defaults, in their one shape, when nothing is stored", () => {
    const { store, source } = memory();
    const root = html();
    expect(settlePreferences(root, source, vi.fn())).toEqual({ theme: "light", language: "en" });
    expect(store.get(USER_PREFERENCES_KEY)).toBe('{"theme":"light","language":"en"}');
    expect(root.dataset.theme).toBe("light");
    expect(root.lang).toBe("en");
  });

  it("keeps the visitor's values, completes a partial or broken value, and leaves a whole one alone", () => {
    const kept = memory([[USER_PREFERENCES_KEY, '{"theme":"dark","language":"fr"}']]);
    const setItem = vi.spyOn(kept.source(), "setItem");
    const root = html();
    expect(settlePreferences(root, kept.source, vi.fn())).toEqual({ theme: "dark", language: "fr" });
    expect(setItem).not.toHaveBeenCalled();
    // The site has one theme and one language: the document keeps them.
    expect(root.dataset.theme).toBe("light");
    expect(root.lang).toBe("en");

    const partial = memory([[USER_PREFERENCES_KEY, '{"theme":"dark"}']]);
    settlePreferences(html(), partial.source, vi.fn());
    expect(partial.store.get(USER_PREFERENCES_KEY)).toBe('{"theme":"dark","language":"en"}');

    const broken = memory([[USER_PREFERENCES_KEY, "{not json"]]);
    settlePreferences(html(), broken.source, vi.fn());
    expect(broken.store.get(USER_PREFERENCES_KEY)).toBe('{"theme":"light","language":"en"}');
  });

  it("never throws when storage refuses: the defaults apply and the failure is only logged", () => {
    const warn = vi.fn();
    const root = html();
    expect(settlePreferences(root, refusing, warn)).toEqual(DEFAULT_PREFERENCES);
    expect(root.dataset.theme).toBe("light");
    expect(warn).toHaveBeenCalled();
  });
});

describe("rendering", () => {
  it("never reads storage while rendering: the server and the first render show the defaults", async () => {
    const { createElement } = await import("react");
    const { renderToString } = await import("react-dom/server");
    const { useViewMode } = await import("./preferences");
    // biome-ignore lint/correctness/noComponentHookFactories: it calls the hook this test imports itself; it is made once and never re-rendered
    function Probe() {
      const [mode] = useViewMode();
      return createElement("p", null, mode);
    }
    const reads = vi.fn(() => "grid");
    const globals = globalThis as unknown as { window?: unknown };
    // As on the server (no window at all), and as in a browser whose storage holds "grid".
    expect(renderToString(createElement(Probe))).toBe("<p>list</p>");
    globals.window = { localStorage: { getItem: reads, setItem: vi.fn(), removeItem: vi.fn() } };
    try {
      expect(renderToString(createElement(Probe))).toBe("<p>list</p>");
      expect(reads).not.toHaveBeenCalled();
    } finally {
      delete globals.window;
    }
  });
});
