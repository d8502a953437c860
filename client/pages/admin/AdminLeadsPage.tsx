import { AdminShell, Choice, FIELD, INPUT, Pager, TableScroll } from "../../features/admin/AdminShell";
import { statusClass, statusLabel } from "../../features/admin/labels";
import type { AdminLeadsProps } from "../../lib/types";

/** The leads list: newest first, filtered by a plain GET form (works without JavaScript). */
export function AdminLeadsPage({
  frame,
  filter,
  services,
  statuses,
  rows,
  notice,
  nextHref,
  firstHref,
  exportHref,
  timeZone,
}: AdminLeadsProps) {
  return (
    <AdminShell frame={frame} title="Leads">
      <form method="get" action="/admin/leads" className="mt-4 grid gap-3 rounded-xl border border-slate-200 bg-white p-4 md:grid-cols-3">
        <label className={FIELD}>
          Phone
          <input
            type="search"
            name="phone"
            defaultValue={filter.phone}
            inputMode="tel"
            autoComplete="off"
            placeholder="Any format"
            className={INPUT}
          />
        </label>
        <label className={FIELD}>
          Name
          <input
            type="search"
            name="name"
            defaultValue={filter.name}
            autoComplete="off"
            placeholder="First or last name"
            className={INPUT}
          />
        </label>
        <label className={FIELD}>
          Service
          <select name="service" defaultValue={filter.service} className={INPUT}>
            <option value="">All services</option>
            {services.map((s) => (
              <option key={s.slug} value={s.slug}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
        <Choice label="Delivery" name="status" value={filter.status} options={statuses} any="Any status" labelOf={statusLabel} />
        <label className={FIELD}>
          From
          <input type="date" name="from" defaultValue={filter.from} className={INPUT} />
        </label>
        <label className={FIELD}>
          To
          <input type="date" name="to" defaultValue={filter.to} className={INPUT} />
        </label>
        <div className="flex flex-wrap items-center gap-3 md:col-span-3">
          <button type="submit" className="rounded-lg bg-blue-700 px-4 py-2 font-bold text-white hover:bg-blue-800">
            Search
          </button>
          <a href="/admin/leads" className="font-bold text-blue-800 underline">
            Clear
          </a>
          <a href={exportHref} className="font-bold text-blue-800 underline">
            Export these leads (CSV)
          </a>
          <span className="text-sm text-slate-600">{`Times in ${timeZone}.`}</span>
        </div>
      </form>
      {notice && (
        <p role="status" className="mt-4 rounded-lg border-l-4 border-red-700 bg-red-50 p-3 text-sm font-bold text-red-800">
          {notice}
        </p>
      )}
      {rows.length === 0 ? (
        !notice && <p className="mt-4 text-slate-700">No leads match.</p>
      ) : (
        <TableScroll label="Leads">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-slate-200 text-slate-700">
              <tr>
                <th scope="col" className="px-3 py-2">
                  Name
                </th>
                <th scope="col" className="px-3 py-2">
                  Phone
                </th>
                <th scope="col" className="px-3 py-2">
                  Received
                </th>
                <th scope="col" className="px-3 py-2">
                  Service
                </th>
                <th scope="col" className="px-3 py-2">
                  ZIP
                </th>
                <th scope="col" className="px-3 py-2">
                  Delivery
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id} className="border-b border-slate-200">
                  <td className="min-w-[8rem] px-3 py-2">
                    <a href={r.href} className="font-bold text-blue-800 underline">
                      {r.name || "Erased lead"}
                    </a>
                  </td>
                  <td className="whitespace-nowrap px-3 py-2">
                    <a href={r.telHref} className="inline-block py-1 text-blue-800 underline">
                      {r.phone}
                    </a>
                  </td>
                  <td className="whitespace-nowrap px-3 py-2">{r.received}</td>
                  <td className="px-3 py-2">{r.service}</td>
                  <td className="px-3 py-2">{r.zip}</td>
                  <td className="whitespace-nowrap px-3 py-2">
                    <span className={statusClass(r.status)}>{statusLabel(r.status)}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <Pager firstHref={firstHref} nextHref={nextHref} olderLabel="Older leads" />
    </AdminShell>
  );
}
