import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["client/**/*.test.ts", "client/**/*.test.tsx", "ssr-bundle/**/*.test.ts", "catalogue/**/*.test.ts"],
    environment: "node",
  },
});
