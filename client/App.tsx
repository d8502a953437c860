import { CampaignsPage } from "./pages/CampaignsPage";
import { HomePage } from "./pages/HomePage";
import { LegalPage } from "./pages/LegalPage";
import { NotFoundPage } from "./pages/NotFoundPage";
import { ServicePage } from "./pages/ServicePage";
import type { PageProps } from "./lib/types";

/** The root: picks the page component named by the props. Same on server and browser. */
export function App(props: PageProps) {
  switch (props.page) {
    case "home":
      return <HomePage {...props} />;
    case "campaigns":
      return <CampaignsPage {...props} />;
    case "service":
      return <ServicePage {...props} />;
    case "legal":
      return <LegalPage {...props} />;
    case "not-found":
      return <NotFoundPage {...props} />;
  }
}
