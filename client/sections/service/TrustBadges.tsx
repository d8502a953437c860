import { Icon } from "../../ui/Icon";
import { CHECK_ICON } from "../../ui/icons";

export interface TrustBadge {
  title: string;
  text: string;
}

/** Phone layout: the trust cards (Licensed & Insured, 24/7 Emergency Service). */
export function TrustBadges({ badges }: { badges: readonly TrustBadge[] }) {
  return (
    <ul className="grid grid-cols-2 gap-3">
      {badges.map(({ title, text }) => (
        <li key={title} className="rounded-xl border border-slate-200 p-4">
          <Icon node={CHECK_ICON} className="h-5 w-5 text-green-700" />
          <p className="mt-2 font-bold text-slate-900">{title}</p>
          <p className="text-sm text-slate-600">{text}</p>
        </li>
      ))}
    </ul>
  );
}
