/** A legal text as the server rendered it from its content file (catalogue/legal/*.md):
 * the one component behind both the /privacy and /terms pages and the legal modals. The
 * HTML is the server's own: Markdown it rendered, with configuration values escaped. */
export function LegalText({ html }: { html: string }) {
  return (
    <div
      className="text-slate-700 [&_a]:font-bold [&_a]:text-blue-800 [&_a]:underline [&_h2]:mt-6 [&_h2]:text-lg [&_h2]:font-bold [&_h2]:text-slate-900 [&_h3]:mt-6 [&_h3]:text-lg [&_h3]:font-bold [&_h3]:text-slate-900 [&_li]:mt-1 [&_p:first-child]:text-sm [&_p:first-child]:text-slate-600 [&_p]:mt-2 [&_strong]:font-bold [&_strong]:text-slate-900 [&_ul]:mt-2 [&_ul]:list-disc [&_ul]:pl-6"
      // biome-ignore lint/security/noDangerouslySetInnerHtml: the server's own HTML (see above), never a visitor's
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
