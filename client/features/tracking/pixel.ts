// Ad pixel events from the page's own code. Kept apart from the loaders in tracking.ts,
// so a page whose forms send events does not also download the code that loads the scripts.

export type Fbq = ((...args: unknown[]) => void) & { queue?: unknown[][]; loaded?: boolean; version?: string; push?: unknown };

declare global {
  interface Window {
    fbq?: Fbq;
    _fbq?: Fbq;
  }
}

/** Sends a pixel event when the pixel is loaded; a no-op otherwise. */
export function pixelEvent(kind: "track" | "trackCustom", name: string, data?: Record<string, string>) {
  window.fbq?.(kind, name, data);
}
