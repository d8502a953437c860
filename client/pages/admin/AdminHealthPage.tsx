import { AdminShell, TableScroll } from "../../features/admin/AdminShell";
import type { AdminHealthProps } from "../../lib/types";

/** Health: the notification figures /metrics exposes, one table per group. */
export function AdminHealthPage({ frame, groups, readAt }: AdminHealthProps) {
  return (
    <AdminShell frame={frame} title="Health">
      <p className="mt-2 text-sm text-slate-600">{`Read from the database at ${readAt}. Reload the page for fresh figures.`}</p>
      {groups.map((g) => (
        <section key={g.title} className="mt-6" aria-labelledby={`health-${slug(g.title)}`}>
          <h2 id={`health-${slug(g.title)}`} className="text-lg font-bold text-slate-900">
            {g.title}
          </h2>
          {g.note && <p className="mt-1 text-sm text-slate-600">{g.note}</p>}
          <TableScroll label={g.title}>
            <table className="w-full text-left text-sm">
              <tbody>
                {g.figures.map((f) => (
                  <tr key={f.label} className="border-b border-slate-200">
                    <th scope="row" className="px-3 py-2 font-normal text-slate-700">
                      {f.label}
                    </th>
                    <td className={f.alert ? "px-3 py-2 font-bold text-red-800" : "px-3 py-2 font-bold text-slate-900"}>{f.value}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </section>
      ))}
    </AdminShell>
  );
}

function slug(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9]+/g, "-");
}
