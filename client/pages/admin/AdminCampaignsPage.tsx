import { AdminShell, Choice, CsrfField, FIELD, INPUT, TableScroll } from "../../features/admin/AdminShell";
import { CampaignImport } from "../../features/admin/CampaignImport";
import ConfirmSubmit from "../../features/admin/ConfirmSubmit.island";
import type { AdminCampaignsProps, CampaignForm, CampaignRow } from "../../lib/types";

const BUTTON = "rounded-lg bg-blue-700 px-4 py-2 font-bold text-white hover:bg-blue-800";
const LIGHT = "rounded-lg border border-slate-300 bg-white px-4 py-2 font-bold text-slate-900 hover:bg-slate-100";

function StatusButtons({ row, csrf }: { row: CampaignRow; csrf: string }) {
  if (row.status === "ended") return <span className="text-slate-600">Ended</span>;
  const next = row.status === "LIVE" ? { status: "paused", label: "Pause" } : { status: "LIVE", label: "Resume" };
  return (
    <div className="flex flex-wrap gap-2">
      <form method="post" action="/admin/campaigns/status">
        <CsrfField token={csrf} />
        <input type="hidden" name="id" value={row.id} />
        <input type="hidden" name="status" value={next.status} />
        <button type="submit" className="font-bold text-blue-800 underline" aria-label={`${next.label} ${row.name}`}>
          {next.label}
        </button>
      </form>
      <form method="post" action="/admin/campaigns/status">
        <CsrfField token={csrf} />
        <input type="hidden" name="id" value={row.id} />
        <input type="hidden" name="status" value="ended" />
        <ConfirmSubmit
          label="End"
          ariaLabel={`End ${row.name}`}
          question={`End ${row.name} for good?`}
          confirmLabel="Yes, end it"
          tone="link"
        />
      </form>
    </div>
  );
}

function Text({ label, name, value, required }: { label: string; name: string; value: string; required?: boolean }) {
  return (
    <label className={FIELD}>
      {label}
      <input type="text" name={name} defaultValue={value} required={required} className={INPUT} />
    </label>
  );
}

function CampaignFormFields({
  form,
  statuses,
  paymentTerms,
  csrf,
}: {
  form: CampaignForm;
  statuses: string[];
  paymentTerms: string[];
  csrf: string;
}) {
  return (
    <form
      method="post"
      action="/admin/campaigns"
      className="mt-4 grid gap-3 rounded-xl border border-slate-200 bg-white p-4 md:grid-cols-2"
    >
      <h2 className="text-lg font-bold text-slate-900 md:col-span-2">{form.id ? `Change ${form.name}` : "Add a campaign"}</h2>
      <CsrfField token={csrf} />
      {form.id ? <input type="hidden" name="id" value={form.id} /> : null}
      <Text label="Name" name="name" value={form.name} required />
      <Choice label="Status" name="status" value={form.status} options={statuses} />
      <Text label="Payout" name="payouts" value={form.payouts} required />
      <label className={FIELD}>
        Payment terms
        <select name="payment_terms" defaultValue={form.paymentTerms} className={INPUT}>
          {paymentTerms.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </label>
      <Text label="GEOs" name="geos" value={form.geos} required />
      <Text label="Promotion note" name="promo_allowed" value={form.promoAllowed} />
      <Text label="Cap" name="cap" value={form.cap} required />
      <Text label="Hours" name="hours" value={form.hours} required />
      <label className={FIELD}>
        Call length (seconds)
        <input type="number" name="seconds" min={1} max={3600} defaultValue={form.seconds} required className={INPUT} />
      </label>
      <fieldset className="flex flex-wrap items-end gap-4 text-sm font-bold text-slate-800">
        <legend className="sr-only">Traffic</legend>
        <label className="flex items-center gap-2">
          <input type="checkbox" name="inbound" value="yes" defaultChecked={form.inbound} /> Inbound
        </label>
        <label className="flex items-center gap-2">
          <input type="checkbox" name="transfer" value="yes" defaultChecked={form.transfer} /> Transfer
        </label>
      </fieldset>
      <label className={`${FIELD} md:col-span-2`}>
        Notes
        <textarea name="notes" defaultValue={form.notes} rows={3} maxLength={1000} className={INPUT} />
      </label>
      <div className="flex flex-wrap gap-3 md:col-span-2">
        <button type="submit" className={BUTTON}>
          Save
        </button>
        {form.id ? (
          <a href="/admin/campaigns" className={LIGHT}>
            Add a new one instead
          </a>
        ) : null}
      </div>
    </form>
  );
}

/** The campaigns the portal shows: the list, the add and change form, each one's history. */
export function AdminCampaignsPage({
  frame,
  rows,
  search,
  status,
  statuses,
  paymentTerms,
  notice,
  noticeIsError,
  form,
  history,
  importText,
  importError,
  importPreview,
}: AdminCampaignsProps) {
  return (
    <AdminShell frame={frame} title="Campaigns">
      <p className="mt-2 text-sm text-slate-600">
        What the affiliate portal shows. A saved change is on every server's public pages within a second. Paused and ended campaigns are
        off the public lists; an ended one is kept for its history and the applications that name it.
      </p>
      {notice && (
        <p
          role={noticeIsError ? "alert" : "status"}
          className={`mt-4 rounded-lg border-l-4 p-3 text-sm font-bold ${noticeIsError ? "border-red-700 bg-red-50 text-red-800" : "border-slate-400 bg-white text-slate-800"}`}
        >
          {notice}
        </p>
      )}
      <CampaignFormFields form={form} statuses={statuses} paymentTerms={paymentTerms} csrf={frame.csrf} />
      {history.length > 0 ? (
        <TableScroll label="History of this campaign">
          <table className="w-full text-left text-sm">
            <caption className="px-3 py-2 text-left font-bold text-slate-900">History</caption>
            <thead className="border-b border-slate-200 text-slate-700">
              <tr>
                {["When", "Who", "Field", "From", "To"].map((h) => (
                  <th key={h} scope="col" className="px-3 py-2">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {history.map((h) => (
                <tr key={`${h.at}|${h.field}|${h.from ?? ""}|${h.to ?? ""}`} className="border-b border-slate-200">
                  <td className="whitespace-nowrap px-3 py-2">{h.at}</td>
                  <td className="px-3 py-2">{h.by ?? "Imported"}</td>
                  <td className="px-3 py-2 font-bold">{h.field}</td>
                  <td className="px-3 py-2">{h.from ?? ""}</td>
                  <td className="px-3 py-2">{h.to ?? ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
      <form method="get" action="/admin/campaigns" className="mt-6 flex flex-wrap items-end gap-3">
        <label className={FIELD}>
          Find by name
          <input type="search" name="name" defaultValue={search} autoComplete="off" className={INPUT} />
        </label>
        <Choice label="Status" name="status" value={status} options={statuses} any="All" />
        <button type="submit" className={LIGHT}>
          Show
        </button>
      </form>
      {rows.length === 0 ? (
        <p className="mt-4 text-slate-700">No campaign matches.</p>
      ) : (
        <TableScroll label="Campaigns">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-slate-200 text-slate-700">
              <tr>
                {["Name", "Status", "Payout", "Payment terms", "GEOs", "Changed", "Actions"].map((h) => (
                  <th key={h} scope="col" className="px-3 py-2">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id} className="border-b border-slate-200">
                  <td className="px-3 py-2 font-bold">
                    <a href={`/admin/campaigns?edit=${r.id}`} className="text-blue-800 underline">
                      {r.name}
                    </a>
                  </td>
                  <td className="px-3 py-2">{r.status}</td>
                  <td className="px-3 py-2">{r.payouts}</td>
                  <td className="px-3 py-2">{r.paymentTerms}</td>
                  <td className="px-3 py-2">{r.geos}</td>
                  <td className="whitespace-nowrap px-3 py-2">
                    {r.changed}
                    {r.changedBy ? ` by ${r.changedBy}` : ""}
                  </td>
                  <td className="px-3 py-2">
                    <StatusButtons row={r} csrf={frame.csrf} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <CampaignImport csrf={frame.csrf} text={importText} error={importError} preview={importPreview} />
    </AdminShell>
  );
}
