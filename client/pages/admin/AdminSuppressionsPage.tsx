import { AdminShell, CsrfField, FIELD, INPUT, Pager, TableScroll } from "../../features/admin/AdminShell";
import ConfirmSubmit from "../../features/admin/ConfirmSubmit.island";
import type { AdminSuppressionsProps } from "../../lib/types";

/** The do-not-call list: numbers whose leads are kept but never delivered. Newest first, a page
 * at a time; one number found however it is typed. */
export function AdminSuppressionsPage({
  frame,
  rows,
  search,
  notice,
  noticeIsError,
  phone,
  reason,
  nextHref,
  firstHref,
}: AdminSuppressionsProps) {
  return (
    <AdminShell frame={frame} title="Do not call">
      <p className="mt-2 text-sm text-slate-600">
        A lead from a number on this list is still stored (it is a legal record) but never sent to the people who call leads back. The
        visitor sees the usual confirmation. Adding a number also stops every notification of its earlier leads that was not delivered yet.
      </p>
      {notice && (
        <p
          role={noticeIsError ? "alert" : "status"}
          className={`mt-4 rounded-lg border-l-4 p-3 text-sm font-bold ${noticeIsError ? "border-red-700 bg-red-50 text-red-800" : "border-slate-400 bg-white text-slate-800"}`}
        >
          {notice}
        </p>
      )}
      <form
        method="post"
        action="/admin/suppressions"
        className="mt-4 grid gap-3 rounded-xl border border-slate-200 bg-white p-4 md:grid-cols-3"
      >
        <h2 className="text-lg font-bold text-slate-900 md:col-span-3">Add a number</h2>
        <CsrfField token={frame.csrf} />
        <label className={FIELD}>
          Phone
          <input type="tel" name="phone" defaultValue={phone} required autoComplete="off" placeholder="Any format" className={INPUT} />
        </label>
        <label className={FIELD}>
          Reason
          <input type="text" name="reason" defaultValue={reason} required maxLength={200} list="suppression-reasons" className={INPUT} />
          <datalist id="suppression-reasons">
            <option value="Replied STOP" />
            <option value="Asked not to be called" />
            <option value="Wrong number" />
          </datalist>
        </label>
        <div className="flex items-end">
          <button type="submit" className="rounded-lg bg-blue-700 px-4 py-2 font-bold text-white hover:bg-blue-800">
            Add to the list
          </button>
        </div>
      </form>
      <form method="get" action="/admin/suppressions" className="mt-4 flex flex-wrap items-end gap-3">
        <label className={FIELD}>
          Find a number
          <input type="search" name="phone" defaultValue={search} autoComplete="off" placeholder="Any format" className={INPUT} />
        </label>
        <button type="submit" className="rounded-lg border border-slate-300 bg-white px-4 py-2 font-bold text-slate-900 hover:bg-slate-100">
          Find
        </button>
        {search && (
          <a href="/admin/suppressions" className="py-2 font-bold text-blue-800 underline">
            Show all
          </a>
        )}
      </form>
      {rows.length === 0 ? (
        <p className="mt-4 text-slate-700">{search ? "That number is not on the list." : "The list is empty."}</p>
      ) : (
        <TableScroll label="Numbers not to call">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-slate-200 text-slate-700">
              <tr>
                <th scope="col" className="px-3 py-2">
                  Phone
                </th>
                <th scope="col" className="px-3 py-2">
                  Reason
                </th>
                <th scope="col" className="px-3 py-2">
                  Added
                </th>
                <th scope="col" className="px-3 py-2">
                  By
                </th>
                <th scope="col" className="px-3 py-2">
                  <span className="sr-only">Remove</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.phoneE164} className="border-b border-slate-200">
                  <td className="whitespace-nowrap px-3 py-2 font-bold">{r.phone}</td>
                  <td className="px-3 py-2">{r.reason}</td>
                  <td className="whitespace-nowrap px-3 py-2">{r.added}</td>
                  <td className="px-3 py-2">{r.addedBy ?? ""}</td>
                  <td className="px-3 py-2">
                    <form method="post" action="/admin/suppressions/remove">
                      <CsrfField token={frame.csrf} />
                      <input type="hidden" name="phone" value={r.phoneE164} />
                      <ConfirmSubmit
                        label="Remove"
                        ariaLabel={`Remove ${r.phone} from the list`}
                        question={`Call ${r.phone} again?`}
                        confirmLabel="Yes, remove"
                        tone="link"
                      />
                    </form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <Pager firstHref={firstHref} nextHref={nextHref} olderLabel="Older numbers" />
    </AdminShell>
  );
}
