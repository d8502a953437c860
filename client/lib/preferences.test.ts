import { describe, expect, it, vi } from "vitest";
import { AFFILIATE_VIEW_MODE_KEY, CLEAR_VIEW_MODE_WARNING, clearAffiliateViewMode } from "./preferences";

describe("clearAffiliateViewMode", () => {
  it("removes the affiliateViewMode key", () => {
    const store = new Map([[AFFILIATE_VIEW_MODE_KEY, "grid"], ["theme", "light"]]);
    const warn = vi.fn();
    clearAffiliateViewMode(() => ({ removeItem: (key: string) => void store.delete(key) }), warn);
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
