// Where the islands are: every `<Name>.island.tsx` under client/, whatever its feature
// folder. client/build.mjs makes one chunk of each, and client/islands/island.test.tsx checks
// that each declares the island its file names; there is no list to keep.

import { readdirSync } from "node:fs";
import { join, relative } from "node:path";

/** An island's file name: its name (also its `data-island` value), then `.island.tsx`. */
export const ISLAND_FILE = /^([A-Z][A-Za-z0-9]*)\.island\.tsx$/;

/** Every island under `clientDir`, sorted by name: `{ name, path }` with `path` absolute.
 * Throws when two files give the same name. */
export function findIslands(clientDir) {
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules") walk(path);
        continue;
      }
      const match = ISLAND_FILE.exec(entry.name);
      if (match) found.push({ name: match[1], path });
    }
  };
  walk(clientDir);
  found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (let i = 1; i < found.length; i++) {
    if (found[i].name === found[i - 1].name) {
      throw new Error(
        `two islands named ${found[i].name}: ${relative(clientDir, found[i - 1].path)} and ${relative(clientDir, found[i].path)}`,
      );
    }
  }
  return found;
}
