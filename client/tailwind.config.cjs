/** @type {import('tailwindcss').Config} */
module.exports = {
  // Server-only pages (askama) use the same classes.
  content: [__dirname + "/**/*.tsx", __dirname + "/**/*.ts", __dirname + "/../server/templates/*.html"],
  theme: {
    extend: {},
  },
  plugins: [],
};
