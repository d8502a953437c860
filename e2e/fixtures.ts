import { type BrowserContext, type BrowserContextOptions, test as base, expect, type Page } from "@playwright/test";

// Every page a test opens is watched: console messages of type error or warning and
// uncaught page errors are recorded, and the test fails at the end if any occurred.
// React reports hydration mismatches this way (console.error in development builds,
// an uncaught recoverable error in production builds), so a mismatch fails the test.

export interface ConsoleProblem {
  kind: "console.error" | "console.warning" | "pageerror";
  url: string;
  text: string;
  location: string;
}

export class ConsoleProblems {
  private readonly problems: ConsoleProblem[] = [];
  private readonly allowed: RegExp[] = [];
  private readonly watched = new WeakSet<Page>();

  /** Starts recording the page's console errors/warnings and uncaught errors. */
  watchPage(page: Page): void {
    if (this.watched.has(page)) return;
    this.watched.add(page);
    page.on("console", (msg) => {
      const type = msg.type();
      if (type !== "error" && type !== "warning") return;
      const loc = msg.location();
      this.record({
        kind: type === "error" ? "console.error" : "console.warning",
        url: page.url(),
        text: msg.text(),
        location: loc.url ? `${loc.url}:${loc.lineNumber}:${loc.columnNumber}` : "",
      });
    });
    page.on("pageerror", (error) => {
      this.record({
        kind: "pageerror",
        url: page.url(),
        text: `${error.name}: ${error.message}`,
        // The stack repeats the message on its first line.
        location: (error.stack ?? "").split("\n").slice(1).join("\n").trim(),
      });
    });
  }

  /** Watches every page the context has and will open. */
  watchContext(context: BrowserContext): void {
    for (const page of context.pages()) this.watchPage(page);
    context.on("page", (page) => this.watchPage(page));
  }

  /** Lets messages matching the pattern through (for a test that expects them). */
  allow(pattern: RegExp): void {
    this.allowed.push(pattern);
  }

  /** Everything recorded so far, removing it from the record (for tests of the fixture). */
  take(): ConsoleProblem[] {
    return this.problems.splice(0, this.problems.length);
  }

  list(): readonly ConsoleProblem[] {
    return this.problems;
  }

  private record(problem: ConsoleProblem): void {
    if (this.allowed.some((re) => re.test(problem.text))) return;
    this.problems.push(problem);
  }
}

export function formatProblems(problems: readonly ConsoleProblem[]): string {
  return problems
    .map((p, i) => `  ${i + 1}. [${p.kind}] on ${p.url}\n     ${p.text}${p.location ? `\n     at ${p.location}` : ""}`)
    .join("\n");
}

interface Fixtures {
  /** The recorder; checked after the test. */
  consoleProblems: ConsoleProblems;
  /** A new browser context with this project's viewport/touch/mobile settings plus
   * `options`, watched like the default one and closed after the test. */
  newContext: (options?: BrowserContextOptions) => Promise<BrowserContext>;
}

export const test = base.extend<Fixtures>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's first parameter as an object pattern, even an empty one
  consoleProblems: async ({}, use, testInfo) => {
    const recorder = new ConsoleProblems();
    await use(recorder);
    const problems = recorder.list();
    if (problems.length > 0) {
      throw new Error(
        `[${testInfo.project.name}] ${problems.length} console error(s)/warning(s) or page error(s):\n${formatProblems(problems)}`,
      );
    }
  },

  context: async ({ context, consoleProblems }, use) => {
    consoleProblems.watchContext(context);
    await use(context);
  },

  newContext: async ({ browser, consoleProblems }, use, testInfo) => {
    const contexts: BrowserContext[] = [];
    const project = testInfo.project.use;
    await use(async (options?: BrowserContextOptions) => {
      const context = await browser.newContext({
        baseURL: project.baseURL,
        viewport: project.viewport,
        isMobile: project.isMobile,
        hasTouch: project.hasTouch,
        deviceScaleFactor: project.deviceScaleFactor,
        userAgent: project.userAgent,
        ...options,
      });
      contexts.push(context);
      consoleProblems.watchContext(context);
      return context;
    });
    for (const context of contexts) await context.close();
  },
});

export { expect };
