import type { ServiceLink } from "./types";

/** The services a server-rendered menu links to: each `<a href="/{slug}" data-icon="{icon}">`
 * with the service's name as its text. */
export function readServiceLinks(menu: ParentNode | null): ServiceLink[] {
  if (!menu) return [];
  return Array.from(menu.querySelectorAll("a[href^='/']"), (a) => ({
    name: (a.textContent ?? "").trim(),
    slug: (a.getAttribute("href") ?? "").slice(1),
    icon: a.getAttribute("data-icon") ?? "",
  })).filter((s) => s.name && s.slug);
}
