// The client's layout (docs/architecture.md, "The client (`client/`)"): the shared folders
// lean on no feature, so a feature can move or go without touching them.

import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "./lib/sourceFiles";

const client = dirname(fileURLToPath(import.meta.url));

/** The client folders a file imports from (its relative imports, resolved). */
function importedFolders(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return Array.from(text.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g), ([, spec]) =>
    relative(client, resolve(dirname(file), spec)),
  ).map((path) => path.split("/")[0]);
}

describe("the shared folders", () => {
  for (const shared of ["ui", "lib", "islands"]) {
    it(`client/${shared}/ imports no feature, page or section`, () => {
      const reaching = sourceFiles(join(client, shared)).flatMap((file) =>
        importedFolders(file)
          .filter((folder) => ["features", "pages", "sections"].includes(folder))
          .map((folder) => `${relative(client, file)} imports from client/${folder}/`),
      );
      expect(reaching).toEqual([]);
    });
  }

  it("are the only folders beside the features, pages and sections", () => {
    const folders = readdirSync(client, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    expect(folders).toEqual(["features", "islands", "lib", "pages", "sections", "ui"]);
  });
});
