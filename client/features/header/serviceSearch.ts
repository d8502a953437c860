import type { ServiceLink } from "../../lib/types";

/** The services whose name contains every word of the query, in any case, in catalogue
 * order. An empty query matches them all. */
export function matchServices(services: readonly ServiceLink[], query: string): ServiceLink[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return services.filter((s) => words.every((w) => s.name.toLowerCase().includes(w)));
}
