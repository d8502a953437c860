// Words the console shows for stored values.

/** A lead's delivery status, as staff read it. */
export function statusLabel(status: string): string {
  switch (status) {
    case "pending":
      return "Sending";
    case "delivered":
      return "Delivered";
    case "failed":
      return "Failed";
    case "suppressed":
      return "Do not call";
    case "none":
      return "No channel";
    default:
      return status;
  }
}

/** Classes of a status badge: the colour says how urgent it is (text stays readable). */
export function statusClass(status: string): string {
  switch (status) {
    case "failed":
      return "rounded-full bg-red-50 px-2 py-0.5 text-xs font-bold text-red-800";
    case "delivered":
      return "rounded-full bg-green-100 px-2 py-0.5 text-xs font-bold text-green-800";
    case "suppressed":
      return "rounded-full bg-amber-100 px-2 py-0.5 text-xs font-bold text-amber-900";
    default:
      return "rounded-full bg-slate-50 px-2 py-0.5 text-xs font-bold text-slate-800";
  }
}

/** What became of one delivery attempt, as staff read it. */
export function outcomeLabel(outcome: string): string {
  return outcome === "suppressed" ? "Not sent: on the do-not-call list" : outcome;
}
