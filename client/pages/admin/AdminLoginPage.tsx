import type { AdminLoginProps } from "../../lib/types";

/** The staff console's sign-in: a plain form posted to the server (no JavaScript needed). */
export function AdminLoginPage({ brand, csrf, email, next, error }: AdminLoginProps) {
  return (
    <main id="main" className="mx-auto flex min-h-screen max-w-sm flex-col justify-center gap-4 px-4 py-10">
      <p className="font-bold text-slate-900">{brand} staff console</p>
      <h1 className="text-2xl font-bold text-slate-900">Staff sign-in</h1>
      {error && (
        <p role="alert" className="rounded-lg border-l-4 border-red-700 bg-red-50 p-3 text-sm font-bold text-red-800">
          {error}
        </p>
      )}
      <form method="post" action="/admin/login" className="flex flex-col gap-4 rounded-xl border border-slate-200 bg-white p-5">
        <input type="hidden" name="csrf" value={csrf} />
        <input type="hidden" name="next" value={next} />
        <label className="flex flex-col gap-1 text-sm font-bold text-slate-800">
          E-mail address
          <input
            type="email"
            name="email"
            defaultValue={email}
            autoComplete="username"
            required
            className="rounded-lg border border-slate-400 px-3 py-2 text-base font-normal"
          />
        </label>
        <label className="flex flex-col gap-1 text-sm font-bold text-slate-800">
          Password
          <input
            type="password"
            name="password"
            autoComplete="current-password"
            required
            className="rounded-lg border border-slate-400 px-3 py-2 text-base font-normal"
          />
        </label>
        <button type="submit" className="rounded-lg bg-blue-700 px-4 py-2.5 font-bold text-white hover:bg-blue-800">
          Sign in
        </button>
      </form>
      <p className="text-sm text-slate-600">Staff accounts are made by an administrator on the server. Ask yours if you need one.</p>
    </main>
  );
}
