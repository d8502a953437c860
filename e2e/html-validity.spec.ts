import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, test } from "./fixtures";
import { SERVER_DOCUMENTS } from "./support/documents";
import { repoRoot } from "./support/env";

// Every document the server renders (e2e/support/documents.ts) is valid HTML: the Nu Html
// Checker (vnu.jar from the npm package vnu-jar, on Debian's Java: `make java`) reports no
// error and no warning. The HTML is what the server sends, before any script runs, so one
// viewport is enough.

const run = promisify(execFile);
const VNU_JAR = join(repoRoot, "node_modules", "vnu-jar", "build", "dist", "vnu.jar");

interface VnuMessage {
  type: "error" | "info" | "non-document-error";
  subType?: string;
  url?: string;
  lastLine?: number;
  message: string;
  extract?: string;
}

test("every server-rendered document passes the Nu Html Checker with no error and no warning", async ({ request }, testInfo) => {
  test.skip(testInfo.project.name !== "desktop", "the server's HTML does not depend on the viewport");
  test.setTimeout(180_000);
  const dir = testInfo.outputPath("html");
  mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  for (const doc of SERVER_DOCUMENTS) {
    const response = doc.form
      ? await request.post(doc.url, { form: doc.form, maxRedirects: 0 })
      : await request.get(doc.url, { maxRedirects: 0 });
    expect(response.status(), `${doc.name}: ${doc.url}`).toBe(doc.status);
    expect(response.headers()["content-type"], doc.name).toContain("text/html");
    const file = join(dir, `${doc.name}.html`);
    writeFileSync(file, await response.body());
    files.push(file);
  }

  const { stdout } = await run("java", ["-jar", VNU_JAR, "--format", "json", "--stdout", "--exit-zero-always", ...files], {
    maxBuffer: 64 * 1024 * 1024,
  });
  const messages = (JSON.parse(stdout) as { messages: VnuMessage[] }).messages;
  const problems = messages.filter((m) => m.type !== "info" || m.subType === "warning");
  const describe = problems
    .map(
      (m) =>
        `${(m.url ?? "").split("/").pop()}:${m.lastLine ?? "?"}: ${m.subType ?? m.type}: ${m.message}\n    ${(m.extract ?? "").replace(/\s+/g, " ").slice(0, 160)}`,
    )
    .join("\n");
  expect(problems, `the Nu Html Checker on ${files.length} documents:\n${describe}`).toEqual([]);
});
