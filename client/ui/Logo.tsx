interface LogoProps {
  brand: string;
  inverted?: boolean;
}

/** The brand mark: a ringing handset in a rounded square, then the name. */
export function Logo({ brand, inverted = false }: LogoProps) {
  return (
    <a href="/" className={`inline-flex items-center gap-2 font-bold text-lg tracking-tight ${inverted ? "text-white" : "text-slate-900"}`}>
      <svg viewBox="0 0 32 32" className="h-8 w-8" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="8" fill="#1d4ed8" />
        <path
          d="M21.5 19.6v2.4a1.6 1.6 0 0 1-1.75 1.6 15.8 15.8 0 0 1-6.9-2.45 15.6 15.6 0 0 1-4.8-4.8A15.8 15.8 0 0 1 5.6 9.4 1.6 1.6 0 0 1 7.2 7.65h2.4a1.6 1.6 0 0 1 1.6 1.38c.1.77.29 1.52.56 2.24a1.6 1.6 0 0 1-.36 1.69l-1.02 1.02a12.8 12.8 0 0 0 4.8 4.8l1.02-1.02a1.6 1.6 0 0 1 1.69-.36c.72.27 1.47.46 2.24.56a1.6 1.6 0 0 1 1.37 1.63Z"
          fill="none"
          stroke="#fff"
          strokeWidth="1.8"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
        <path d="M19 6.5a7 7 0 0 1 6.5 6.5M19 10a3.5 3.5 0 0 1 3 3" fill="none" stroke="#fbbf24" strokeWidth="1.8" strokeLinecap="round" />
      </svg>
      <span>{brand}</span>
    </a>
  );
}
