/** @type {import('tailwindcss').Config} */
module.exports = {
  // Server-only pages (askama) use the same classes.
  // Tests are not markup: their words must not become classes.
  content: [
    `${__dirname}/**/*.tsx`,
    `${__dirname}/**/*.ts`,
    `!${__dirname}/**/*.test.ts`,
    `!${__dirname}/**/*.test.tsx`,
    `${__dirname}/../server/templates/*.html`,
  ],
  theme: {
    extend: {},
  },
  // Tailwind 3 otherwise sets ~50 custom properties (--tw-shadow, --tw-ring-*, ...) on every
  // element and pseudo-element, which makes the browser's first style pass over a page about
  // a third slower; this sets them only on elements whose classes use them.
  experimental: {
    optimizeUniversalDefaults: true,
  },
  plugins: [
    // `noscript:` styles apply only when the browser runs no script (JavaScript turned off):
    // the menus' plain-link stand-ins for their buttons (client/features/header/Disclosure.island.tsx).
    ({ addVariant }) => addVariant("noscript", "@media (scripting: none)"),
  ],
};
