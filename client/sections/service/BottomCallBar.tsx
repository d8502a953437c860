import RequestCallback from "../../features/callback/RequestCallback.island";
import { CallButton } from "../../ui/CallButton";

/** Phone layout: the fixed bottom bar, 'Tap To Call Now' and 'Request Callback' (a
 * complementary landmark of its own, so that no content sits outside a landmark). Both labels
 * keep to one line from 320 px up: the type scales with the width (16 px from 421 px), and
 * below 360 px the phone icon makes room. */
export function BottomCallBar({ phone, service }: { phone: string; service: string }) {
  return (
    <aside
      aria-label="Call or request a callback"
      className="fixed inset-x-0 bottom-0 z-30 grid grid-cols-2 gap-2 border-t border-slate-200 bg-white p-2 text-[clamp(13px,3.8vw,16px)] shadow-[0_-4px_12px_rgba(0,0,0,0.08)] md:hidden"
    >
      <CallButton
        phone={phone}
        service={service}
        location="bottom-bar"
        className="flex items-center justify-center gap-2 rounded-xl bg-red-700 px-2 py-3 font-bold text-white"
        iconClassName="h-4 w-4 max-[359px]:hidden"
        label="Tap To Call Now"
      />
      <RequestCallback className="whitespace-nowrap rounded-xl bg-blue-700 px-2 py-3 font-bold text-white" />
    </aside>
  );
}
