import { useEffect } from "react";
import { hydrateRoot } from "react-dom/client";
import { App } from "./App";
import type { PageProps } from "./lib/types";

/** Marks the document once React has hydrated, so tests (and people) can tell. */
function Root(props: PageProps) {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return <App {...props} />;
}

// The server embeds the exact props it rendered with; hydrate from the same data.
const root = document.getElementById("root");
const data = document.getElementById("page-props");
if (root && data?.textContent) {
  const props = JSON.parse(data.textContent) as PageProps;
  hydrateRoot(root, <Root {...props} />);
}
