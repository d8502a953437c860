import type { ReactNode } from "react";
import { AdminShell, Choice, CsrfField, FIELD, INPUT } from "../../features/admin/AdminShell";
import type { AdminSubmissionProps, Labeled } from "../../lib/types";

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 border-b border-slate-200 py-2 md:grid-cols-[1fr_2fr]">
      <dt className="text-sm font-bold text-slate-700">{label}</dt>
      <dd className="min-w-0 text-slate-900 [overflow-wrap:anywhere]">{children}</dd>
    </div>
  );
}

function Rows({ items }: { items: Labeled[] }) {
  return (
    <>
      {items.map((f) => (
        <Row key={f.label} label={f.label}>
          {f.value}
        </Row>
      ))}
    </>
  );
}

const SECTION = "mt-6 rounded-xl border border-slate-200 bg-white p-4";

/** One account request or application: what was sent, where from, and its status and note. */
export function AdminSubmissionPage(p: AdminSubmissionProps) {
  return (
    <AdminShell frame={p.frame} title={p.kindLabel}>
      <p className="mt-2">
        <a href={p.listHref} className="font-bold text-blue-800 underline">
          Back to the list
        </a>
      </p>
      {p.notice && (
        <p
          role={p.noticeIsError ? "alert" : "status"}
          className={`mt-4 rounded-lg border-l-4 p-3 text-sm font-bold ${p.noticeIsError ? "border-red-700 bg-red-50 text-red-800" : "border-slate-400 bg-white text-slate-800"}`}
        >
          {p.notice}
        </p>
      )}
      <section aria-labelledby="sent-h" className={SECTION}>
        <h2 id="sent-h" className="text-lg font-bold text-slate-900">
          What was sent
        </h2>
        <dl className="mt-2">
          <Row label="Received">{p.received}</Row>
          <Row label="E-mail">
            <a href={`mailto:${p.email}`} className="text-blue-800 underline">
              {p.email}
            </a>
          </Row>
          {p.phone && <Row label="Phone number">{p.phone}</Row>}
          <Rows items={p.fields} />
          <Rows items={p.context} />
          <Row label="Id">{p.id}</Row>
        </dl>
      </section>
      <form method="post" action={`/admin/submissions/${p.id}`} className={`${SECTION} grid gap-3`}>
        <h2 className="text-lg font-bold text-slate-900">Status and note</h2>
        <CsrfField token={p.frame.csrf} />
        <Choice label="Status" name="status" value={p.status} options={p.statuses} />
        <label className={FIELD}>
          Note
          <textarea name="note" defaultValue={p.note} rows={4} maxLength={2000} className={INPUT} />
        </label>
        <div>
          <button type="submit" className="rounded-lg bg-blue-700 px-4 py-2 font-bold text-white hover:bg-blue-800">
            Save
          </button>
        </div>
      </form>
    </AdminShell>
  );
}
