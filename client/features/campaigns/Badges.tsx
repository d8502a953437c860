// The campaign badges and what they mean (docs/product.md, "The affiliate dashboard (home page header)"): the
// legend and the cards use the same ones.

const BADGE = "inline-flex items-center rounded-full px-2 py-0.5 text-xs font-bold";

export const BADGES = {
  live: { label: "LIVE", meaning: "Active campaigns accepting applications", className: `${BADGE} bg-green-100 text-green-900` },
  inbound: { label: "Inbound", meaning: "Inbound traffic allowed", className: `${BADGE} bg-blue-50 text-blue-800` },
  transfer: { label: "Transfer", meaning: "Live call transfers accepted", className: `${BADGE} bg-amber-100 text-amber-900` },
} as const;

export type BadgeKind = keyof typeof BADGES;

export function Badge({ kind, label }: { kind: BadgeKind; label?: string }) {
  return <span className={BADGES[kind].className}>{label ?? BADGES[kind].label}</span>;
}

/** What each badge means. */
export function BadgeLegend() {
  return (
    <dl className="flex flex-wrap gap-x-5 gap-y-2 text-sm text-slate-700">
      {(Object.keys(BADGES) as BadgeKind[]).map((kind) => (
        <div key={kind} className="flex items-center gap-2">
          <dt>
            <Badge kind={kind} />
          </dt>
          <dd>{BADGES[kind].meaning}</dd>
        </div>
      ))}
    </dl>
  );
}
