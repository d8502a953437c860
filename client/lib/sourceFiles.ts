// For the tests only (it reads the disk through node:fs): no client code imports it, so it
// never reaches a bundle.

import { readdirSync } from "node:fs";
import { join } from "node:path";

/** Every TypeScript file (.ts, .tsx) under `dir` and its subfolders, tests included: full paths. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}
