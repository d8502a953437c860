import type { ComponentType } from "react";
import type { PageProps } from "./lib/types";
import { PAGES } from "./pages/pages.gen";

/** The root: picks the page component named by the props (the page map is generated from
 * the server's `PageProps` by `make types`). Same on server and browser. */
export function App(props: PageProps) {
  // PAGES gives each name the component of that name's props; TypeScript cannot follow
  // `props.page` into the lookup, so the pair is rejoined here.
  const Page = PAGES[props.page] as ComponentType<PageProps>;
  return <Page {...props} />;
}
