// Generated from server/src/pages/admin/mod.rs by `make types`: do not edit.
// The console's sections as its navigation lists them: the section, its label, its address.

import type { AdminSection } from "../../lib/types";

export const SECTIONS: ReadonlyArray<readonly [AdminSection, string, string]> = [
  ["funnel", "Funnel", "/admin"],
  ["leads", "Leads", "/admin/leads"],
  ["account-requests", "Account requests", "/admin/account-requests"],
  ["applications", "Applications", "/admin/applications"],
  ["suppressions", "Do not call", "/admin/suppressions"],
  ["campaigns", "Campaigns", "/admin/campaigns"],
  ["data-requests", "Data requests", "/admin/data-requests"],
  ["health", "Health", "/admin/health"],
  ["audit", "Audit log", "/admin/audit"],
];
