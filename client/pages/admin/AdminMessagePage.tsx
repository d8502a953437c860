import { AdminShell } from "../../features/admin/AdminShell";
import type { AdminMessageProps } from "../../lib/types";

/** A short message inside the console: not found, an expired form, … */
export function AdminMessagePage({ frame, title, message }: AdminMessageProps) {
  return (
    <AdminShell frame={frame} title={title}>
      <p className="mt-3 text-slate-700">{message}</p>
      <p className="mt-4">
        <a href={frame ? "/admin/leads" : "/admin/login"} className="font-bold text-blue-800 underline">
          {frame ? "Back to leads" : "Sign in"}
        </a>
      </p>
    </AdminShell>
  );
}
