// The visitor's preferences in local storage (docs/product.md, "Accounts"), behind this one module:
// the affiliate campaign view mode (its own key) and the user preferences (theme and
// language, one JSON value). Storage can be missing or refuse access (private modes, blocked
// cookies): a failure is only logged, and the defaults apply.
//
// Nothing here may run during server rendering or a component's first render in the
// browser: the server cannot know what is stored, so reading it then would make the browser's
// first render differ from the server's HTML. Components start from the defaults and read
// the stored value in an effect (`useStoredPreference`).

import { useEffect, useState } from "react";

/** How the affiliate campaign list is shown. */
export type ViewMode = "list" | "grid";
export const AFFILIATE_VIEW_MODE_KEY = "affiliateViewMode";
export const DEFAULT_VIEW_MODE: ViewMode = "list";

/** Theme and language, stored together as JSON under one key. */
export interface UserPreferences {
  theme: string;
  language: string;
}
export const USER_PREFERENCES_KEY = "userPreferences";
export const DEFAULT_PREFERENCES: Readonly<UserPreferences> = { theme: "light", language: "en" };

export const CLEAR_VIEW_MODE_WARNING = "Unable to clear view preference";
const READ_WARNING = "Unable to read stored preference";
const SAVE_WARNING = "Unable to save preference";

type PreferenceStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;
type StorageSource = () => PreferenceStorage;
type Warn = (...data: unknown[]) => void;

const browserStorage: StorageSource = () => window.localStorage;

function read(key: string, storage: StorageSource, warn: Warn): string | null {
  try {
    return storage().getItem(key);
  } catch (error) {
    warn(READ_WARNING, key, error);
    return null;
  }
}

function write(key: string, value: string, storage: StorageSource, warn: Warn): void {
  try {
    storage().setItem(key, value);
  } catch (error) {
    warn(SAVE_WARNING, key, error);
  }
}

/** The stored view mode, or the default when none (or something else) is stored. */
export function readViewMode(storage: StorageSource = browserStorage, warn: Warn = console.warn): ViewMode {
  const stored = read(AFFILIATE_VIEW_MODE_KEY, storage, warn);
  return stored === "list" || stored === "grid" ? stored : DEFAULT_VIEW_MODE;
}

export function saveViewMode(mode: ViewMode, storage: StorageSource = browserStorage, warn: Warn = console.warn): void {
  write(AFFILIATE_VIEW_MODE_KEY, mode, storage, warn);
}

/** Removes the stored affiliate view mode; a failure only logs the spec's warning. */
export function clearAffiliateViewMode(storage: () => Pick<Storage, "removeItem"> = browserStorage, warn: Warn = console.warn): void {
  try {
    storage().removeItem(AFFILIATE_VIEW_MODE_KEY);
  } catch (error) {
    warn(CLEAR_VIEW_MODE_WARNING, error);
  }
}

/** The stored theme and language, each falling back to its default when missing or not text. */
export function readPreferences(storage: StorageSource = browserStorage, warn: Warn = console.warn): UserPreferences {
  const stored = read(USER_PREFERENCES_KEY, storage, warn);
  if (stored === null) return { ...DEFAULT_PREFERENCES };
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored);
  } catch {
    warn(READ_WARNING, USER_PREFERENCES_KEY);
    return { ...DEFAULT_PREFERENCES };
  }
  const pick = (key: keyof UserPreferences): string => {
    const value = typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>)[key] : undefined;
    return typeof value === "string" && value ? value : DEFAULT_PREFERENCES[key];
  };
  return { theme: pick("theme"), language: pick("language") };
}

/** The themes and languages the site has: one each today (its styles are light, its text
 * English). A stored value the site does not have is kept for the visitor, not applied. */
export const SITE_THEMES: readonly string[] = ["light"];
export const SITE_LANGUAGES: readonly string[] = ["en"];

/** Once the page is live (the island runtime, after hydrating): reads the user preferences;
 * stores them in their one shape, `{"theme":…,"language":…}`, when the key is absent or
 * unreadable (defaults for what is missing, the visitor's own values kept); and marks the
 * document with those the site has (`<html lang>` and `data-theme`). The server renders both
 * with the defaults (server/templates/document.html): with one theme and one language nothing
 * changes on screen, and nothing ever differs from the server's HTML inside an island.
 * Storage that refuses access is only logged. */
export function settlePreferences(
  root: HTMLElement = document.documentElement,
  storage: StorageSource = browserStorage,
  warn: Warn = console.warn,
): UserPreferences {
  const preferences = readPreferences(storage, warn);
  const shaped = JSON.stringify(preferences);
  if (read(USER_PREFERENCES_KEY, storage, () => {}) !== shaped) write(USER_PREFERENCES_KEY, shaped, storage, warn);
  root.dataset.theme = SITE_THEMES.includes(preferences.theme) ? preferences.theme : DEFAULT_PREFERENCES.theme;
  root.lang = SITE_LANGUAGES.includes(preferences.language) ? preferences.language : DEFAULT_PREFERENCES.language;
  return preferences;
}

/** Stores a change to the theme or language, keeping the other. */
export function savePreferences(
  change: Partial<UserPreferences>,
  storage: StorageSource = browserStorage,
  warn: Warn = console.warn,
): UserPreferences {
  const next = { ...readPreferences(storage, warn), ...change };
  write(USER_PREFERENCES_KEY, JSON.stringify(next), storage, warn);
  return next;
}

/** A stored preference for a component: the default on the server and in the first render
 * (so hydration matches), the stored value right after; `set` changes and stores it. */
export function useStoredPreference<T>(fallback: T, load: () => T, store: (value: T) => void): [T, (value: T) => void] {
  const [value, setValue] = useState<T>(fallback);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, after the first render
  useEffect(() => {
    setValue(load());
    // Once, after the first render.
  }, []);
  const set = (next: T) => {
    setValue(next);
    store(next);
  };
  return [value, set];
}

/** The affiliate campaign view mode as component state (list until the stored one is read). */
export function useViewMode(): [ViewMode, (mode: ViewMode) => void] {
  return useStoredPreference<ViewMode>(
    DEFAULT_VIEW_MODE,
    () => readViewMode(),
    (mode) => saveViewMode(mode),
  );
}
