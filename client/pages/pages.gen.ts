// Generated from server/src/pages/props.rs by `make types`: do not edit.
// Every page the server renders, by its props' `page`: the React page that draws it.

import type { ComponentType } from "react";
import type { PageProps } from "../lib/types";
import { CallbackRequestPage } from "./CallbackRequestPage";
import { CallbackRequestedPage } from "./CallbackRequestedPage";
import { CampaignAppliedPage } from "./CampaignAppliedPage";
import { CampaignApplyPage } from "./CampaignApplyPage";
import { CampaignsPage } from "./CampaignsPage";
import { HomePage } from "./HomePage";
import { LegalPage } from "./LegalPage";
import { NotFoundPage } from "./NotFoundPage";
import { RegisterPage } from "./RegisterPage";
import { RegisterThanksPage } from "./RegisterThanksPage";
import { ServicePage } from "./ServicePage";
import { AdminAuditPage } from "./admin/AdminAuditPage";
import { AdminCampaignsPage } from "./admin/AdminCampaignsPage";
import { AdminDataRequestsPage } from "./admin/AdminDataRequestsPage";
import { AdminFunnelPage } from "./admin/AdminFunnelPage";
import { AdminHealthPage } from "./admin/AdminHealthPage";
import { AdminLeadPage } from "./admin/AdminLeadPage";
import { AdminLeadsPage } from "./admin/AdminLeadsPage";
import { AdminLoginPage } from "./admin/AdminLoginPage";
import { AdminMessagePage } from "./admin/AdminMessagePage";
import { AdminSubmissionPage } from "./admin/AdminSubmissionPage";
import { AdminSubmissionsPage } from "./admin/AdminSubmissionsPage";
import { AdminSuppressionsPage } from "./admin/AdminSuppressionsPage";

/** The props of the page named `P`. */
export type PropsOf<P extends PageProps["page"]> = Extract<PageProps, { page: P }>;

/** Each page's React page, which takes that page's props. */
export const PAGES: { readonly [P in PageProps["page"]]: ComponentType<PropsOf<P>> } = {
  "admin-audit": AdminAuditPage,
  "admin-campaigns": AdminCampaignsPage,
  "admin-data-requests": AdminDataRequestsPage,
  "admin-funnel": AdminFunnelPage,
  "admin-health": AdminHealthPage,
  "admin-lead": AdminLeadPage,
  "admin-leads": AdminLeadsPage,
  "admin-login": AdminLoginPage,
  "admin-message": AdminMessagePage,
  "admin-submission": AdminSubmissionPage,
  "admin-submissions": AdminSubmissionsPage,
  "admin-suppressions": AdminSuppressionsPage,
  "callback-request": CallbackRequestPage,
  "callback-requested": CallbackRequestedPage,
  "campaign-applied": CampaignAppliedPage,
  "campaign-apply": CampaignApplyPage,
  "campaigns": CampaignsPage,
  "home": HomePage,
  "legal": LegalPage,
  "not-found": NotFoundPage,
  "register": RegisterPage,
  "register-thanks": RegisterThanksPage,
  "service": ServicePage,
};
