import { useEffect, useState, type ComponentType } from "react";
import type { LegalDocument } from "../lib/types";
import { Dialog } from "./Dialog";
import type { LegalProps } from "./legal/LegalText";

export type { LegalDocument };

export const LEGAL_TITLES: Record<LegalDocument, string> = { privacy: "Privacy Policy", terms: "Terms of Service" };
/** Each text is also a page of its own, for links that work without JavaScript. */
export const LEGAL_PATHS: Record<LegalDocument, string> = { privacy: "/privacy", terms: "/terms" };

interface Props extends LegalProps {
  document: LegalDocument;
  onClose: () => void;
}

/** Privacy Policy or Terms of Service in a modal. The text is a separate chunk, fetched
 * when first opened, so it never weighs on the page's first load. */
export function LegalDialog({ document: which, onClose, ...legal }: Props) {
  const [Body, setBody] = useState<ComponentType<LegalProps> | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    import("./legal/LegalText")
      .then((m) => live && setBody(() => (which === "privacy" ? m.PrivacyPolicy : m.TermsOfService)))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [which]);
  return (
    <Dialog title={LEGAL_TITLES[which]} onClose={onClose} testId={`legal-${which}`}>
      {Body ? (
        <Body {...legal} />
      ) : failed ? (
        <p className="text-red-800">This document could not be loaded. Please check your connection and try again.</p>
      ) : (
        <p className="text-slate-700" aria-live="polite">
          Loading…
        </p>
      )}
    </Dialog>
  );
}
