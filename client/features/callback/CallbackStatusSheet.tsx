import { useEffect, useRef } from "react";
import { formatPhone } from "../../lib/phone";
import { CallLink } from "../../ui/CallLink";
import { Dialog } from "../../ui/Dialog";
import { type CallbackWindow, callbackStatusText } from "./callbackWindow";

export const AUTO_CLOSE_MS = 8000;

interface Props {
  window: CallbackWindow;
  phone: string;
  service: string;
  onClose: () => void;
  /** The submit button, to take focus back when the sheet closes. */
  returnFocusTo?: HTMLElement | null;
}

/** 'Callback status': the bottom sheet after a successful callback request. It closes by
 * itself after 8 s, but never while the pointer is over it. */
export function CallbackStatusSheet({ window: callbackWindow, phone, service, onClose, returnFocusTo }: Props) {
  const { title, text } = callbackStatusText(callbackWindow);
  const remaining = useRef(AUTO_CLOSE_MS);
  const startedAt = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const start = () => {
    clearTimeout(timer.current);
    startedAt.current = Date.now();
    timer.current = setTimeout(onClose, remaining.current);
  };
  const pause = () => {
    clearTimeout(timer.current);
    remaining.current = Math.max(0, remaining.current - (Date.now() - startedAt.current));
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: the clock starts once, when the sheet mounts
  useEffect(() => {
    start();
    return () => clearTimeout(timer.current);
    // The sheet mounts once per request; start the clock once.
  }, []);

  return (
    <Dialog
      title={title}
      eyebrow="Callback status"
      onClose={onClose}
      variant="sheet"
      onPointerEnter={pause}
      onPointerLeave={start}
      testId="callback-status"
      returnFocusTo={returnFocusTo}
    >
      <p className="text-slate-700">{text}</p>
      <p className="mt-4 text-sm text-slate-700">
        Want to talk now?{" "}
        <CallLink phone={phone} service={service} location="callback-status" className="font-bold text-blue-800 underline">
          Call {formatPhone(phone)}
        </CallLink>
      </p>
      <button
        type="button"
        onClick={onClose}
        className="mt-5 w-full rounded-xl bg-blue-700 px-6 py-3 font-bold text-white hover:bg-blue-800"
      >
        Got it
      </button>
    </Dialog>
  );
}
