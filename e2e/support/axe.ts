import { join } from "node:path";
import type { Page } from "@playwright/test";
import { repoRoot } from "./env";

// axe-core, injected as a script (the page's CSP forbids inline scripts, so the context
// must be made with bypassCSP: true) and run against WCAG 2.0/2.1 A and AA, or against
// every rule it has (ALL_RULES, best practices included).

export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[]; failureSummary?: string }>;
}

/** Every rule axe has, best practices included (not only the WCAG-tagged ones). */
export const ALL_RULES = "all";

/** The violations, and how many rules passed (to show the run checked something). */
export async function axeViolations(
  page: Page,
  tags: string[] | typeof ALL_RULES = AXE_TAGS,
): Promise<{ violations: AxeViolation[]; passes: number }> {
  // The campaign cards are `content-visibility: auto`: until shown, the browser neither lays
  // them out nor hit-tests them, so axe could not find their colours. Render them, as a
  // visitor scrolling down would, before checking.
  await page.evaluate(() => {
    for (const el of document.querySelectorAll<HTMLElement>(".campaign-card")) el.style.setProperty("content-visibility", "visible");
  });
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe !== "undefined");
  if (!loaded) await page.addScriptTag({ path: join(repoRoot, "node_modules", "axe-core", "axe.min.js") });
  return page.evaluate(async (tags) => {
    type Result = { violations: AxeViolation[]; passes: unknown[] };
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<Result> } }).axe;
    const only = tags === "all" ? {} : { runOnly: { type: "tag", values: tags } };
    const result = await axe.run(document, { ...only, resultTypes: ["violations"] });
    return {
      passes: result.passes.length,
      violations: result.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
      })),
    };
  }, tags);
}

/** One line per violation and node, for the failure message. */
export function describeViolations(violations: AxeViolation[]): string {
  return violations
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(" ")}: ${(n.failureSummary ?? "").replace(/\s+/g, " ")}`).join("\n")}`,
    )
    .join("\n");
}
