import type { ServiceLink } from "./types";

/** The services a server-rendered menu links to: each `<a href="/{slug}">` with its name as
 * text and its icon drawn from a sprite (`<use href="…#i-{icon}">`). */
export function readServiceLinks(menu: ParentNode | null): ServiceLink[] {
  if (!menu) return [];
  return Array.from(menu.querySelectorAll("a[href^='/']"), (a) => ({
    name: (a.textContent ?? "").trim(),
    slug: (a.getAttribute("href") ?? "").slice(1),
    icon: (a.querySelector("use")?.getAttribute("href") ?? "").split("#i-")[1] ?? "",
  })).filter((s) => s.name && s.slug);
}
