import type { ReactNode } from "react";
import { AdminShell, CsrfField, TableScroll } from "../../features/admin/AdminShell";
import CopyButton from "../../features/admin/CopyButton.island";
import { outcomeLabel, statusClass, statusLabel } from "../../features/admin/labels";
import type { AdminLeadProps } from "../../lib/types";

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 border-b border-slate-200 py-2 md:grid-cols-[12rem_1fr] md:gap-4">
      <dt className="text-sm font-bold text-slate-700">{label}</dt>
      <dd className="text-slate-900">{children}</dd>
    </div>
  );
}

const SECTION = "mt-6 rounded-xl border border-slate-200 bg-white p-4";

/** One lead: what was stored, its consent record as a compliance team asks for it, and its
 * deliveries with every attempt. */
export function AdminLeadPage(p: AdminLeadProps) {
  const c = p.consent;
  return (
    <AdminShell frame={p.frame} title={p.name || "Erased lead"}>
      {p.notice && (
        <p role="status" className="mt-4 rounded-lg border-l-4 border-slate-400 bg-white p-3 text-sm font-bold text-slate-800">
          {p.notice}
        </p>
      )}
      <section aria-labelledby="lead-h" className={SECTION}>
        <h2 id="lead-h" className="text-lg font-bold text-slate-900">
          Lead
        </h2>
        <dl className="mt-2">
          <Row label="Phone">
            <a href={p.telHref} className="font-bold text-blue-800 underline">
              {p.phone}
            </a>
            {p.suppressedNow && (
              <span className="ml-2 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-bold text-amber-900">On the do-not-call list</span>
            )}
          </Row>
          <Row label="Service">{p.service}</Row>
          <Row label="ZIP">{p.zip || "not given"}</Row>
          {p.details.map((d) => (
            <Row key={d.label} label={d.label}>
              <span className="break-all">{d.value}</span>
            </Row>
          ))}
          <Row label="Delivery">
            <span className={statusClass(p.status)}>{statusLabel(p.status)}</span>
          </Row>
          {p.erased && <Row label="Erased on request">{p.erased}</Row>}
          <Row label="Lead id">
            {p.id}
            <CopyButton value={p.id} what="the lead id" />
          </Row>
        </dl>
      </section>
      <section aria-labelledby="consent-h" className={SECTION}>
        <h2 id="consent-h" className="text-lg font-bold text-slate-900">
          Consent record
        </h2>
        <dl className="mt-2">
          <Row label="Received (UTC)">{c.receivedUtc}</Row>
          <Row label="Received (local)">{c.receivedLocal}</Row>
          <Row label="Wording shown">
            <blockquote className="border-l-4 border-slate-300 pl-3 text-sm leading-relaxed">{c.text}</blockquote>
          </Row>
          <Row label="Wording SHA-256">
            <code className="break-all text-xs">{c.sha256}</code>
            <CopyButton value={c.sha256} what="the wording's SHA-256" />
          </Row>
          <Row label="Certificate URL">{c.certUrl ? <span className="break-all">{c.certUrl}</span> : "none"}</Row>
          <Row label="Certificate token">
            {c.certToken ? (
              <>
                <span className="break-all">{c.certToken}</span>
                <CopyButton value={c.certToken} what="the certificate token" />
              </>
            ) : (
              "none"
            )}
          </Row>
          <Row label="Ping URL">{c.pingUrl ? <span className="break-all">{c.pingUrl}</span> : "none"}</Row>
          <Row label="IP address">{c.ip ?? "not recorded"}</Row>
          <Row label="User agent">{c.userAgent ? <span className="break-all">{c.userAgent}</span> : "not recorded"}</Row>
          <Row label="Page URL">{c.pageUrl ? <span className="break-all">{c.pageUrl}</span> : "not recorded"}</Row>
          <Row label="Referrer">{c.referrer ? <span className="break-all">{c.referrer}</span> : "none"}</Row>
          {c.utm.map((u) => (
            <Row key={u.label} label={u.label}>
              {u.value}
            </Row>
          ))}
        </dl>
      </section>
      <section aria-labelledby="delivery-h" className={SECTION}>
        <h2 id="delivery-h" className="text-lg font-bold text-slate-900">
          Deliveries
        </h2>
        {p.deliveries.length === 0 ? (
          <p className="mt-2 text-slate-700">
            {p.status === "suppressed"
              ? "None: the number was on the do-not-call list when the lead arrived."
              : "None: no delivery channel was configured."}
          </p>
        ) : (
          <ul className="mt-2 space-y-3">
            {p.deliveries.map((d) => (
              <li key={d.id} className="flex flex-wrap items-center gap-3">
                <span className="font-bold">{d.channel}</span>
                <span className={statusClass(d.status === "pending" ? "pending" : d.status)}>{statusLabel(d.status)}</span>
                <span className="text-sm text-slate-700">{`${d.attempts} attempt(s) ${d.when}`}</span>
                {d.lastError && <span className="text-sm text-red-800">{d.lastError}</span>}
                {d.canRetry && (
                  <form method="post" action={`/admin/leads/${p.id}/retry`}>
                    <CsrfField token={p.frame.csrf} />
                    <input type="hidden" name="delivery" value={d.id} />
                    <button type="submit" className="rounded-lg bg-blue-700 px-3 py-1 text-sm font-bold text-white hover:bg-blue-800">
                      {`Retry ${d.channel}`}
                    </button>
                  </form>
                )}
              </li>
            ))}
          </ul>
        )}
        {p.attempts.length > 0 && (
          <TableScroll label="Delivery attempts">
            <table className="w-full text-left text-sm">
              <thead className="border-b border-slate-200 text-slate-700">
                <tr>
                  <th scope="col" className="px-3 py-2">
                    Time
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Channel
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Outcome
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Error
                  </th>
                </tr>
              </thead>
              <tbody>
                {p.attempts.map((a, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a server-rendered table of attempts in order, never reordered
                  <tr key={i} className="border-b border-slate-200">
                    <td className="whitespace-nowrap px-3 py-2">{a.at}</td>
                    <td className="px-3 py-2">{a.channel}</td>
                    <td className="px-3 py-2">{outcomeLabel(a.outcome)}</td>
                    <td className="px-3 py-2">{a.error ?? ""}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>
      <p className="mt-6">
        <a href="/admin/leads" className="font-bold text-blue-800 underline">
          Back to leads
        </a>
      </p>
    </AdminShell>
  );
}
