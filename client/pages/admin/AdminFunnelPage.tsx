import type { ReactNode } from "react";
import { AdminShell, TableScroll } from "../../features/admin/AdminShell";
import { DailyChart, Legend } from "../../features/admin/DailyChart";
import { formatNumber } from "../../lib/format";
import type { AdminFunnelProps, FunnelDay, FunnelSeries } from "../../lib/types";

const TH = "px-3 py-2 font-bold text-slate-900";
const TD = "whitespace-nowrap px-3 py-2 text-slate-800";

/** The console's first screen: the last 30 or 90 days of leads at a glance. */
export function AdminFunnelPage(props: AdminFunnelProps) {
  const {
    frame,
    periods,
    days,
    from,
    to,
    timeZone,
    leads,
    delivered,
    fast,
    fastShare,
    suppressed,
    erased,
    services,
    sources,
    rows,
    slowest,
  } = props;
  const dates = rows.map((r) => r.date);
  const busiest = rows.reduce<FunnelDay | null>((best, r) => (best === null || r.leads > best.leads ? r : best), null);
  const span = `${from} to ${to} (${timeZone})`;
  return (
    <AdminShell frame={frame} title="Funnel">
      <div className="mt-2 flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-slate-600">{`The last ${days} days: ${span}. Days are the business's days.`}</p>
        <nav aria-label="Period" className="flex gap-2 text-sm font-bold">
          {periods.map((p) => (
            <a
              key={p.days}
              href={p.href}
              aria-current={p.current ? "page" : undefined}
              className={
                p.current
                  ? "rounded-lg bg-slate-900 px-3 py-1 text-white"
                  : "rounded-lg border border-slate-300 bg-white px-3 py-1 text-blue-800 hover:bg-slate-100"
              }
            >
              {`Last ${p.days} days`}
            </a>
          ))}
        </nav>
      </div>

      <dl className="mt-4 grid grid-cols-2 gap-3 lg:grid-cols-5">
        <Figure label="Leads received" value={formatNumber(leads)} />
        <Figure label="Delivered within a minute" value={fastShare} note={`${formatNumber(fast)} of ${formatNumber(leads)}`} />
        <Figure label="Delivered" value={formatNumber(delivered)} note="every notification sent" />
        <Figure label="Suppressed" value={formatNumber(suppressed)} note="on the do-not-call list" />
        <Figure label="Erased" value={formatNumber(erased)} note="on a data request" />
      </dl>

      <ChartSection
        id="by-service"
        title="Leads per day by service"
        summary={summary(leads, days, busiest, services)}
        series={services}
        dates={dates}
        values={rows.map((r) => r.byService)}
        rows={rows}
        extra
      />
      <ChartSection
        id="by-source"
        title="Leads per day by source"
        summary={summary(leads, days, busiest, sources)}
        series={sources}
        dates={dates}
        values={rows.map((r) => r.bySource)}
        rows={rows}
        note="Source: the UTM source of the page the lead came from, else the site that referred the visitor, else direct."
      />

      <section className="mt-8" aria-labelledby="slowest">
        <h2 id="slowest" className="text-lg font-bold text-slate-900">
          Slowest deliveries
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Notifications of these days' leads that took longest from the lead's arrival to delivery.
        </p>
        {slowest.length === 0 ? (
          <p className="mt-3 text-slate-800">No notification was delivered in these days.</p>
        ) : (
          <TableScroll label="Slowest deliveries">
            <table className="w-full text-left text-sm">
              <thead className="bg-slate-50">
                <tr>
                  <th scope="col" className={TH}>
                    Lead received
                  </th>
                  <th scope="col" className={TH}>
                    Took
                  </th>
                  <th scope="col" className={TH}>
                    Service
                  </th>
                  <th scope="col" className={TH}>
                    Channel
                  </th>
                </tr>
              </thead>
              <tbody>
                {slowest.map((s, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a server-rendered table, never reordered; a lead may be slow on one channel twice
                  <tr key={`${s.href}-${s.channel}-${i}`} className="border-t border-slate-200">
                    <td className={TD}>
                      <a href={s.href} className="font-bold text-blue-800 underline">
                        {s.received}
                      </a>
                    </td>
                    <td className={`${TD} font-bold`}>{s.took}</td>
                    <td className={TD}>{s.service}</td>
                    <td className={TD}>{s.channel}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>
      <p className="mt-6 text-sm text-slate-600">
        <a href="/admin/leads" className="font-bold text-blue-800 underline">
          All leads, newest first
        </a>
      </p>
    </AdminShell>
  );
}

function Figure({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-3">
      <dt className="text-sm text-slate-700">{label}</dt>
      <dd className="text-2xl font-bold text-slate-900">{value}</dd>
      {note && <dd className="text-xs text-slate-600">{note}</dd>}
    </div>
  );
}

function summary(leads: number, days: number, busiest: FunnelDay | null, series: ReadonlyArray<FunnelSeries>): string {
  if (leads === 0) return `No leads in the last ${days} days.`;
  const most = series.filter((s) => s.label !== "Other")[0];
  const top = busiest ? ` The busiest day was ${busiest.date} with ${formatNumber(busiest.leads)}.` : "";
  const lead = most ? ` The most: ${most.label}, ${formatNumber(most.total)}.` : "";
  return `${formatNumber(leads)} leads in the last ${days} days.${top}${lead} The figures are in the table "Figures per day".`;
}

function ChartSection({
  id,
  title,
  summary,
  series,
  dates,
  values,
  rows,
  note,
  extra = false,
}: {
  id: string;
  title: string;
  summary: string;
  series: ReadonlyArray<FunnelSeries>;
  dates: ReadonlyArray<string>;
  values: ReadonlyArray<ReadonlyArray<number>>;
  rows: ReadonlyArray<FunnelDay>;
  note?: string;
  /** Add the delivery columns to the table. */
  extra?: boolean;
}): ReactNode {
  return (
    <section className="mt-8" aria-labelledby={id}>
      <h2 id={id} className="text-lg font-bold text-slate-900">
        {title}
      </h2>
      {note && <p className="mt-1 text-sm text-slate-600">{note}</p>}
      <div className="mt-3 grid items-start gap-4 lg:grid-cols-2">
        <div className="min-w-0 rounded-xl border border-slate-200 bg-white p-3">
          <DailyChart id={`${id}-chart`} title={title} summary={summary} series={series} dates={dates} values={values} />
          <Legend series={series} label={`${title}: totals`} />
        </div>
        <details className="min-w-0 rounded-xl border border-slate-200 bg-white p-3">
          <summary className="cursor-pointer font-bold text-blue-800">Figures per day</summary>
          <TableScroll label={`${title}: figures per day`}>
            <table className="w-full text-left text-sm [&_td]:px-3 [&_td]:py-2 [&_td]:text-slate-800 [&_tbody_th]:whitespace-nowrap [&_tbody_th]:px-3 [&_tbody_th]:py-2 [&_tbody_th]:font-normal [&_tbody_tr]:border-t [&_tbody_tr]:border-slate-200">
              <caption className="sr-only">{title}</caption>
              <thead className="bg-slate-50">
                <tr>
                  <th scope="col" className={TH}>
                    Day
                  </th>
                  {series.map((s) => (
                    <th key={s.label} scope="col" className={`${TH} min-w-[5.5rem] max-w-[10rem] break-words`}>
                      {s.label}
                    </th>
                  ))}
                  <th scope="col" className={TH}>
                    All
                  </th>
                  {extra && (
                    <>
                      <th scope="col" className={TH}>
                        Within a minute
                      </th>
                      <th scope="col" className={TH}>
                        Suppressed
                      </th>
                      <th scope="col" className={TH}>
                        Erased
                      </th>
                    </>
                  )}
                </tr>
              </thead>
              <tbody>
                {rows.map((r, d) => (
                  <tr key={r.date}>
                    <th scope="row">{r.date}</th>
                    {series.map((s, i) => (
                      <td key={s.label}>{formatNumber(values[d]?.[i] ?? 0)}</td>
                    ))}
                    <td className="font-bold">{formatNumber(r.leads)}</td>
                    {extra && (
                      <>
                        <td>{formatNumber(r.fast)}</td>
                        <td>{formatNumber(r.suppressed)}</td>
                        <td>{formatNumber(r.erased)}</td>
                      </>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </details>
      </div>
    </section>
  );
}
