// The server entry: QuickJS evaluates this bundle once per engine and then calls
// globalThis.render(page, propsJson) for every page it needs.
import { renderToString } from "react-dom/server";
import { App } from "../client/App";
import type { PageProps } from "../client/lib/types";

function render(page: string, propsJson: string): string {
  const props = JSON.parse(propsJson) as PageProps;
  if (props.page !== page) {
    throw new Error(`props are for page "${props.page}", not "${page}"`);
  }
  return renderToString(<App {...props} />);
}

(globalThis as { render?: typeof render }).render = render;
