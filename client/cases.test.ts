// Every file of shared vectors in catalogue/cases/ is read by a TypeScript test, as the Rust
// tests read them for the server: a new form's vectors cannot be checked on one side only.

import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const casesDir = join(root, "catalogue", "cases");
/** Where vitest finds the tests that may read the vectors (vitest.config.ts). */
const testDirs = ["client", "ssr-bundle"];

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : testFiles(path);
    return /\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Vector file (absolute path) → the test files that import it. */
function readers(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of testDirs.flatMap((d) => testFiles(join(root, d)))) {
    for (const [, specifier] of readFileSync(file, "utf8").matchAll(/^import\s[^;]*?from\s+"([^"]*catalogue\/cases\/[^"]+)"/gm)) {
      const target = resolve(dirname(file), specifier);
      found.set(target, [...(found.get(target) ?? []), relative(root, file)]);
    }
  }
  return found;
}

describe("catalogue/cases/", () => {
  const files = readdirSync(casesDir).sort();
  const read = readers();

  it("holds the shared vectors", () => {
    expect(files).toContain("leads.json");
    expect(files).toContain("phones.json");
  });

  for (const name of files) {
    it(`${name} is read by a TypeScript test`, () => {
      expect(read.get(join(casesDir, name)) ?? [], `no test under ${testDirs.join("/ or ")}/ imports catalogue/cases/${name}`).not.toEqual(
        [],
      );
    });
  }

  it("every vector file a test imports exists", () => {
    const missing = [...read.keys()].filter((path) => !files.includes(relative(casesDir, path)));
    expect(missing.map((path) => relative(root, path))).toEqual([]);
  });
});
