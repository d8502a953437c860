import type { ServiceLink } from "../../lib/types";

/** The services a server-rendered menu links to: each `<a href="/{slug}">` with the service's
 * name as its text and its icon as an image of the sprite's view (`<img src="…#v-{icon}">`,
 * server/src/pages/sprite.rs), the name read back from the image's address. */
export function readServiceLinks(menu: ParentNode | null): ServiceLink[] {
  if (!menu) return [];
  return Array.from(menu.querySelectorAll("a[href^='/']"), (a) => ({
    name: (a.textContent ?? "").trim(),
    slug: (a.getAttribute("href") ?? "").slice(1),
    icon: (a.querySelector("img")?.getAttribute("src") ?? "").split("#v-")[1] ?? "",
  })).filter((s) => s.name && s.slug);
}
