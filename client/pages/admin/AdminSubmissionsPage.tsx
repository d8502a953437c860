import { AdminShell, Choice, Pager, TableScroll } from "../../features/admin/AdminShell";
import type { AdminSubmissionsProps } from "../../lib/types";

/** Account requests or campaign applications: newest first, by status, a page at a time. */
export function AdminSubmissionsPage({
  frame,
  title,
  path,
  status,
  statuses,
  rows,
  notice,
  nextHref,
  firstHref,
  exportHref,
}: AdminSubmissionsProps) {
  return (
    <AdminShell frame={frame} title={title}>
      <form method="get" action={path} className="mt-4 flex flex-wrap items-end gap-3">
        <Choice label="Status" name="status" value={status} options={statuses} any="Any" />
        <button type="submit" className="rounded-lg bg-blue-700 px-4 py-2 font-bold text-white hover:bg-blue-800">
          Show
        </button>
        {exportHref && (
          <a href={exportHref} className="py-2 font-bold text-blue-800 underline">
            Export CSV
          </a>
        )}
      </form>
      {notice && (
        <p role="status" className="mt-4 rounded-lg border-l-4 border-red-700 bg-red-50 p-3 text-sm font-bold text-red-800">
          {notice}
        </p>
      )}
      {rows.length === 0 ? (
        !notice && <p className="mt-4 text-slate-700">Nothing matches.</p>
      ) : (
        <TableScroll label={title}>
          <table className="w-full text-left text-sm">
            <thead className="border-b border-slate-200 text-slate-700">
              <tr>
                <th scope="col" className="px-3 py-2">
                  Received
                </th>
                <th scope="col" className="px-3 py-2">
                  Name
                </th>
                <th scope="col" className="px-3 py-2">
                  E-mail
                </th>
                <th scope="col" className="px-3 py-2">
                  Phone
                </th>
                <th scope="col" className="px-3 py-2">
                  Status
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id} className="border-b border-slate-200">
                  <td className="whitespace-nowrap px-3 py-2">
                    <a href={r.href} className="font-bold text-blue-800 underline">
                      {r.received}
                    </a>
                  </td>
                  <td className="min-w-[9rem] px-3 py-2">
                    {r.name}
                    {r.company && <span className="text-slate-700">{r.name ? ` (${r.company})` : r.company}</span>}
                  </td>
                  <td className="min-w-[12rem] break-all px-3 py-2">{r.email}</td>
                  <td className="whitespace-nowrap px-3 py-2">{r.phone}</td>
                  <td className="px-3 py-2">{r.status}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <Pager firstHref={firstHref} nextHref={nextHref} olderLabel="Older" />
    </AdminShell>
  );
}
