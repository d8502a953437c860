// The types of discover.mjs (plain JavaScript, so client/build.mjs can run it in Node).

export declare const ISLAND_FILE: RegExp;
export declare function findIslands(clientDir: string): { name: string; path: string }[];
