import { lazy, Suspense, useRef, useState } from "react";
import type { HeaderOverlayState } from "../components/header/overlays";
import { defineIsland } from "./island";

// Loaded when first opened, so the button's own chunk stays small.
const HeaderOverlay = lazy(() => import("../components/header/overlays").then((m) => ({ default: m.HeaderOverlay })));

interface Props {
  /** "nav": 'For Contractors' in the navigation; "bar": 'Login' in the phone header. */
  place: "nav" | "bar";
  /** The support number: ten digits. */
  phone: string;
}

const OUTLINE = "whitespace-nowrap rounded-xl border border-slate-300 px-4 font-bold text-blue-800 hover:bg-blue-50";

/** A button that opens the contractor login type chooser, and what it leads to: the two
 * 'coming soon' alerts and the affiliate dashboard. */
function LoginChooser({ place, phone }: Props) {
  const [overlay, setOverlay] = useState<HeaderOverlayState | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button ref={button} type="button" aria-haspopup="dialog" onClick={() => setOverlay({ kind: "chooser" })}
        className={`${OUTLINE} ${place === "bar" ? "py-2 text-sm" : "py-2.5"}`}
      >
        {place === "bar" ? "Login" : "For Contractors"}
      </button>
      {overlay ? (
        <Suspense fallback={null}>
          <HeaderOverlay overlay={overlay} onChange={setOverlay} phone={phone} returnFocusTo={button.current} />
        </Suspense>
      ) : null}
    </>
  );
}

export default defineIsland("LoginChooser", LoginChooser);
