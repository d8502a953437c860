import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { defineIsland, wakesOn } from "../../islands/island";
import { ScriptButton } from "../../ui/ScriptButton";
import { REGISTER_PATH } from "../accounts/paths";
import type { HeaderOverlayState } from "./overlays";

// Loaded when first opened, so the button's own chunk stays small.
const HeaderOverlay = lazy(() => import("./overlays").then((m) => ({ default: m.HeaderOverlay })));

interface Props {
  /** The support number: ten digits. */
  phone: string;
  /** The info address. */
  email: string;
  /** The campaign catalogue as JSON, for the affiliate dashboard's campaigns modal. */
  campaignsUrl: string;
}

/** The addresses of the affiliate dashboard and of its campaigns modal: a reload (or the
 * back button) brings the demo affiliate back to where they were. */
const DASHBOARD_HASH = "#affiliate-dashboard";
const CAMPAIGNS_HASH = "#available-campaigns";

function replaceHash(hash: string): void {
  const { pathname, search } = window.location;
  window.history.replaceState(window.history.state, "", pathname + search + hash);
}

const OUTLINE = "whitespace-nowrap rounded-xl border border-slate-300 px-4 font-bold text-blue-800 hover:bg-blue-50";

/** A button that opens the contractor login type chooser, and what it leads to: the two
 * 'coming soon' alerts and the affiliate dashboard. */
function LoginChooser({ phone, email, campaignsUrl }: Props) {
  const [overlay, setOverlay] = useState<HeaderOverlayState | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const showsDashboard = useRef(false);

  // After hydration: the page's address names the dashboard (a reload, the back button).
  useEffect(() => {
    const hash = window.location.hash;
    if (hash === DASHBOARD_HASH || hash === CAMPAIGNS_HASH) setOverlay({ kind: "dashboard", campaigns: hash === CAMPAIGNS_HASH });
  }, []);

  useEffect(() => {
    if (overlay?.kind === "dashboard") {
      showsDashboard.current = true;
      replaceHash(overlay.campaigns ? CAMPAIGNS_HASH : DASHBOARD_HASH);
    } else if (showsDashboard.current) {
      showsDashboard.current = false;
      replaceHash("");
    }
  }, [overlay]);

  return (
    <>
      {/* Without JavaScript: a link to the registration request form, which works without it. */}
      <ScriptButton
        ref={button}
        aria-haspopup="dialog"
        onClick={() => setOverlay({ kind: "chooser" })}
        href={REGISTER_PATH}
        className={OUTLINE}
        buttonClassName="py-2.5 noscript:hidden"
        linkClassName="hidden py-2.5 noscript:inline-block"
      >
        For Contractors
      </ScriptButton>
      {/* Into <body>: on a phone the button sits in the closed menu, and a dialog inside a
          hidden element would not show (a reload at the dashboard's address opens it there). */}
      {overlay
        ? createPortal(
            <Suspense fallback={null}>
              <HeaderOverlay
                overlay={overlay}
                onChange={setOverlay}
                phone={phone}
                email={email}
                campaignsUrl={campaignsUrl}
                returnFocusTo={button.current}
              />
            </Suspense>,
            document.body,
          )
        : null}
    </>
  );
}

export default wakesOn(defineIsland("LoginChooser", LoginChooser), [DASHBOARD_HASH, CAMPAIGNS_HASH]);
