import { AdminShell, CsrfField, INPUT, TableScroll } from "../../features/admin/AdminShell";
import ConfirmSubmit from "../../features/admin/ConfirmSubmit.island";
import type { AdminDataRequestsProps } from "../../lib/types";

/** Data requests: everything stored for a phone number or an e-mail address, and its deletion
 * (leads keep only their consent record, as the law requires). */
export function AdminDataRequestsPage({ frame, query, notice, noticeIsError, searched, records, canErase }: AdminDataRequestsProps) {
  return (
    <AdminShell frame={frame} title="Data requests">
      <p className="mt-2 text-sm text-slate-600">
        Find every record of a person by phone number (any format) or e-mail address. Deleting keeps each lead&apos;s consent record
        (wording, certificate, time, IP address and the number consented for) and erases the rest; account requests and applications are
        deleted. Every deletion is in the audit log.
      </p>
      <form method="get" action="/admin/data-requests" className="mt-4 flex flex-wrap items-end gap-3">
        <label className="flex flex-col gap-1 text-sm font-bold text-slate-800">
          Phone number or e-mail address
          <input type="search" name="q" defaultValue={query} required autoComplete="off" className={INPUT} />
        </label>
        <button type="submit" className="rounded-lg bg-blue-700 px-4 py-2 font-bold text-white hover:bg-blue-800">
          Find
        </button>
      </form>
      {notice && (
        <p
          role={noticeIsError ? "alert" : "status"}
          className={`mt-4 rounded-lg border-l-4 p-3 text-sm font-bold ${noticeIsError ? "border-red-700 bg-red-50 text-red-800" : "border-slate-400 bg-white text-slate-800"}`}
        >
          {notice}
        </p>
      )}
      {searched && records.length === 0 && <p className="mt-4 text-slate-700">Nothing is stored for it.</p>}
      {records.length > 0 && (
        <TableScroll label="Records found">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-slate-200 text-slate-700">
              <tr>
                <th scope="col" className="px-3 py-2">
                  Received
                </th>
                <th scope="col" className="px-3 py-2">
                  Record
                </th>
                <th scope="col" className="px-3 py-2">
                  Name or e-mail
                </th>
                <th scope="col" className="px-3 py-2">
                  State
                </th>
              </tr>
            </thead>
            <tbody>
              {records.map((r) => (
                <tr key={r.href} className="border-b border-slate-200">
                  <td className="whitespace-nowrap px-3 py-2">
                    <a href={r.href} className="font-bold text-blue-800 underline">
                      {r.received}
                    </a>
                  </td>
                  <td className="px-3 py-2">{r.kind}</td>
                  <td className="min-w-[10rem] break-words px-3 py-2">{r.name}</td>
                  <td className="px-3 py-2">{r.state}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {canErase && (
        <form method="post" action="/admin/data-requests/erase" className="mt-4 rounded-xl border border-red-200 bg-white p-4">
          <CsrfField token={frame.csrf} />
          <input type="hidden" name="q" value={query} />
          <p className="text-sm text-slate-800">Delete these records at the person&apos;s request. This cannot be undone.</p>
          <div className="mt-3">
            <ConfirmSubmit label="Delete these records" question="Delete them for good?" confirmLabel="Yes, delete" tone="danger" />
          </div>
        </form>
      )}
    </AdminShell>
  );
}
