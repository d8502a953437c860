import type { ImportLine } from "../../lib/types";
import { CsrfField, TableScroll } from "./AdminShell";

const BUTTON = "rounded-lg bg-blue-700 px-4 py-2 font-bold text-white hover:bg-blue-800";

/** The campaigns' CSV: the export link, and the import (paste, preview, confirm). Plain forms:
 * it works without JavaScript. Nothing is saved until the preview is confirmed. */
export function CampaignImport({
  csrf,
  text,
  error,
  preview,
}: {
  csrf: string;
  text: string;
  error: string | null;
  preview: ImportLine[];
}) {
  return (
    <section className="mt-6 rounded-xl border border-slate-200 bg-white p-4" aria-labelledby="campaigns-csv">
      <h2 id="campaigns-csv" className="text-lg font-bold text-slate-900">
        Spreadsheet
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        <a href="/admin/campaigns.csv" className="font-bold text-blue-800 underline">
          Export the campaigns as CSV
        </a>
        , change them in a spreadsheet, and paste the file here. Leave the id empty to add one. You see what each line does before anything
        is saved, and a line that breaks a rule saves nothing at all.
      </p>
      {error ? (
        <p role="alert" className="mt-3 rounded-lg border-l-4 border-red-700 bg-red-50 p-3 text-sm font-bold text-red-800">
          {error}
        </p>
      ) : null}
      <form method="post" action="/admin/campaigns/import" className="mt-3 flex flex-col gap-3">
        <CsrfField token={csrf} />
        <label className="flex flex-col gap-1 text-sm font-bold text-slate-800">
          CSV
          <textarea
            name="csv"
            defaultValue={text}
            rows={preview.length > 0 ? 4 : 6}
            className="rounded-lg border border-slate-400 px-3 py-2 font-mono text-sm font-normal"
          />
        </label>
        {preview.length > 0 ? (
          <>
            <TableScroll label="What the import does">
              <table className="w-full text-left text-sm">
                <thead className="border-b border-slate-200 text-slate-700">
                  <tr>
                    <th scope="col" className="px-3 py-2">
                      Line
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Campaign
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Does
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {preview.map((l) => (
                    <tr key={l.line} className="border-b border-slate-200">
                      <td className="px-3 py-2">{l.line}</td>
                      <td className="px-3 py-2 font-bold">{l.name}</td>
                      <td className="px-3 py-2">{l.what}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
            <div className="flex flex-wrap gap-3">
              <button type="submit" name="confirm" value="yes" className={BUTTON}>
                Save these changes
              </button>
              <button
                type="submit"
                className="rounded-lg border border-slate-300 bg-white px-4 py-2 font-bold text-slate-900 hover:bg-slate-100"
              >
                Preview again
              </button>
            </div>
          </>
        ) : (
          <div>
            <button type="submit" className={BUTTON}>
              Preview the import
            </button>
          </div>
        )}
      </form>
    </section>
  );
}
