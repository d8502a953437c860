import { AdminShell, TableScroll } from "../../features/admin/AdminShell";
import type { AdminAuditProps } from "../../lib/types";

/** The audit log: every staff action, newest first. */
export function AdminAuditPage({ frame, entries, olderHref }: AdminAuditProps) {
  return (
    <AdminShell frame={frame} title="Audit log">
      <p className="mt-2 text-sm text-slate-600">
        Every sign-in, view of a consent record, export, suppression, deletion and retry, kept as long as the records.
      </p>
      {entries.length === 0 ? (
        <p className="mt-4 text-slate-700">Nothing has been recorded yet.</p>
      ) : (
        <TableScroll label="Audit log">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-slate-200 text-slate-700">
              <tr>
                <th scope="col" className="px-3 py-2">
                  Time
                </th>
                <th scope="col" className="px-3 py-2">
                  Staff
                </th>
                <th scope="col" className="px-3 py-2">
                  Action
                </th>
                <th scope="col" className="px-3 py-2">
                  Record
                </th>
                <th scope="col" className="px-3 py-2">
                  IP
                </th>
                <th scope="col" className="px-3 py-2">
                  Detail
                </th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id} className="border-b border-slate-200">
                  <td className="whitespace-nowrap px-3 py-2">{e.at}</td>
                  <td className="px-3 py-2">{e.staff ?? "unknown"}</td>
                  <td className="px-3 py-2 font-bold">{e.action}</td>
                  <td className="px-3 py-2">
                    {e.targetHref ? (
                      <a href={e.targetHref} className="text-blue-800 underline">
                        {e.target}
                      </a>
                    ) : (
                      (e.target ?? "")
                    )}
                  </td>
                  <td className="px-3 py-2">{e.ip ?? ""}</td>
                  <td className="px-3 py-2">{e.detail ?? ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {olderHref && (
        <p className="mt-4">
          <a href={olderHref} className="font-bold text-blue-800 underline">
            Older entries
          </a>
        </p>
      )}
    </AdminShell>
  );
}
