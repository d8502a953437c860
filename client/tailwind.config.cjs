/** @type {import('tailwindcss').Config} */
module.exports = {
  // Server-only pages (askama) use the same classes.
  // Tests are not markup: their words must not become classes.
  content: [
    __dirname + "/**/*.tsx",
    __dirname + "/**/*.ts",
    "!" + __dirname + "/**/*.test.ts",
    "!" + __dirname + "/**/*.test.tsx",
    __dirname + "/../server/templates/*.html",
  ],
  theme: {
    extend: {},
  },
  plugins: [],
};
