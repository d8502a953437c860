import type { PageProps } from "./lib/types";
import { AdminAuditPage } from "./pages/admin/AdminAuditPage";
import { AdminDataRequestsPage } from "./pages/admin/AdminDataRequestsPage";
import { AdminFunnelPage } from "./pages/admin/AdminFunnelPage";
import { AdminHealthPage } from "./pages/admin/AdminHealthPage";
import { AdminLeadPage } from "./pages/admin/AdminLeadPage";
import { AdminLeadsPage } from "./pages/admin/AdminLeadsPage";
import { AdminLoginPage } from "./pages/admin/AdminLoginPage";
import { AdminMessagePage } from "./pages/admin/AdminMessagePage";
import { AdminSubmissionPage } from "./pages/admin/AdminSubmissionPage";
import { AdminSubmissionsPage } from "./pages/admin/AdminSubmissionsPage";
import { AdminSuppressionsPage } from "./pages/admin/AdminSuppressionsPage";
import { CallbackRequestedPage } from "./pages/CallbackRequestedPage";
import { CallbackRequestPage } from "./pages/CallbackRequestPage";
import { CampaignAppliedPage } from "./pages/CampaignAppliedPage";
import { CampaignApplyPage } from "./pages/CampaignApplyPage";
import { CampaignsPage } from "./pages/CampaignsPage";
import { HomePage } from "./pages/HomePage";
import { LegalPage } from "./pages/LegalPage";
import { NotFoundPage } from "./pages/NotFoundPage";
import { RegisterPage } from "./pages/RegisterPage";
import { RegisterThanksPage } from "./pages/RegisterThanksPage";
import { ServicePage } from "./pages/ServicePage";

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
    case "register":
      return <RegisterPage {...props} />;
    case "register-thanks":
      return <RegisterThanksPage {...props} />;
    case "campaign-apply":
      return <CampaignApplyPage {...props} />;
    case "campaign-applied":
      return <CampaignAppliedPage {...props} />;
    case "callback-request":
      return <CallbackRequestPage {...props} />;
    case "callback-requested":
      return <CallbackRequestedPage {...props} />;
    case "not-found":
      return <NotFoundPage {...props} />;
    case "admin-login":
      return <AdminLoginPage {...props} />;
    case "admin-message":
      return <AdminMessagePage {...props} />;
    case "admin-audit":
      return <AdminAuditPage {...props} />;
    case "admin-leads":
      return <AdminLeadsPage {...props} />;
    case "admin-lead":
      return <AdminLeadPage {...props} />;
    case "admin-suppressions":
      return <AdminSuppressionsPage {...props} />;
    case "admin-submissions":
      return <AdminSubmissionsPage {...props} />;
    case "admin-submission":
      return <AdminSubmissionPage {...props} />;
    case "admin-data-requests":
      return <AdminDataRequestsPage {...props} />;
    case "admin-health":
      return <AdminHealthPage {...props} />;
    case "admin-funnel":
      return <AdminFunnelPage {...props} />;
  }
}
