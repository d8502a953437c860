import type { NotFoundProps } from "../lib/types";
import { Logo } from "../ui/Logo";

/** Answer for any path that is neither a page, a redirect nor an asset. */
export function NotFoundPage({ site }: NotFoundProps) {
  return (
    <main id="main" className="mx-auto flex min-h-screen max-w-xl flex-col items-center justify-center gap-6 px-4 text-center">
      <Logo brand={site.brand} />
      <h1 className="text-3xl font-bold text-slate-900">Service not found</h1>
      <p className="text-slate-700">The page you asked for does not exist or has moved.</p>
      <a href="/" className="rounded-xl bg-blue-700 px-6 py-3 font-bold text-white hover:bg-blue-800">
        Return Home
      </a>
    </main>
  );
}
