import type { ReactNode } from "react";
import type { AdminFrame } from "../../lib/types";
import { SECTIONS } from "./sections.gen";

// The staff console's frame: a skip link, the console's navigation, who is signed in and the
// sign-out form, then the page's own content. Plain links and forms: it all works without
// JavaScript, and only the parts that need it hydrate. The sections come from the server's
// `AdminSection` (server/src/pages/admin/mod.rs), written into sections.gen.ts by `make types`.

/** A labelled field of a console form: the label's text above its control. */
export const FIELD = "flex flex-col gap-1 text-sm font-bold text-slate-800";
/** A console form's text box or list. */
export const INPUT = "rounded-lg border border-slate-400 bg-white px-3 py-2 text-base font-normal";

/** A labelled list of `options` (a status filter, a status to set); `any` first, when given,
 * stands for no choice. */
export function Choice({
  label,
  name,
  value,
  options,
  any,
  labelOf = (o) => o,
}: {
  label: string;
  name: string;
  value: string;
  options: readonly string[];
  any?: string;
  labelOf?: (option: string) => string;
}) {
  return (
    <label className={FIELD}>
      {label}
      <select name={name} defaultValue={value} className={INPUT}>
        {any === undefined ? null : <option value="">{any}</option>}
        {options.map((o) => (
          <option key={o} value={o}>
            {labelOf(o)}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The hidden field every form that changes something carries. */
export function CsrfField({ token }: { token: string }) {
  return <input type="hidden" name="csrf" value={token} />;
}

export function AdminShell({ frame, title, children }: { frame: AdminFrame | null; title: string; children: ReactNode }) {
  return (
    <>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-4 focus:py-2"
      >
        Skip to content
      </a>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3">
          <p className="font-bold text-slate-900">{frame ? `${frame.brand} staff console` : "Staff console"}</p>
          {frame && (
            <form method="post" action="/admin/logout" className="flex flex-wrap items-center gap-3 text-sm">
              <span className="text-slate-700">{`Signed in as ${frame.staffEmail}`}</span>
              <CsrfField token={frame.csrf} />
              <button type="submit" className="rounded-lg border border-slate-300 px-3 py-1 font-bold text-slate-900 hover:bg-slate-100">
                Sign out
              </button>
            </form>
          )}
        </div>
        {frame && (
          <nav aria-label="Console" className="mx-auto max-w-6xl px-4 pb-2">
            <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm font-bold">
              {SECTIONS.map(([section, label, href]) => (
                <li key={section}>
                  <a
                    href={href}
                    aria-current={frame.section === section ? "page" : undefined}
                    className={frame.section === section ? "text-slate-900 underline underline-offset-4" : "text-blue-800 hover:underline"}
                  >
                    {label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        )}
      </header>
      <main id="main" className="mx-auto max-w-6xl px-4 py-6">
        <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
        {children}
      </main>
    </>
  );
}

/** A table that scrolls sideways on a narrow screen (and can be scrolled from the keyboard). */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a <section> without a heading is a Nu Html Checker warning, and the pages must have none
    <div
      role="region"
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable from the keyboard (axe: scrollable-region-focusable)
      tabIndex={0}
      className="relative mt-4 overflow-x-auto rounded-lg border border-slate-200 bg-white"
    >
      {children}
    </div>
  );
}

/** The links between pages of a list, newest first: back to the newest, and on to older rows. */
export function Pager({ firstHref, nextHref, olderLabel }: { firstHref: string | null; nextHref: string | null; olderLabel: string }) {
  return (
    <nav aria-label="Pages" className="mt-4 flex gap-4 font-bold">
      {firstHref && (
        <a href={firstHref} className="text-blue-800 underline">
          Newest
        </a>
      )}
      {nextHref && (
        <a href={nextHref} className="text-blue-800 underline">
          {olderLabel}
        </a>
      )}
    </nav>
  );
}
