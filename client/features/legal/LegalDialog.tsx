import { useEffect, useState } from "react";
import { Dialog } from "../../ui/Dialog";
import { LegalText } from "./LegalText";
import { LEGAL_TITLES, type LegalDocument, legalFragmentUrl } from "./legal";

interface Props {
  document: LegalDocument;
  onClose: () => void;
}

/** Privacy Policy or Terms of Service in a modal. The text is fetched from the server when
 * first opened, so it never weighs on the page's first load. */
export function LegalDialog({ document: which, onClose }: Props) {
  const [html, setHtml] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    fetch(legalFragmentUrl(which))
      .then((response) => (response.ok ? response.text() : Promise.reject(new Error(`${response.status}`))))
      .then((text) => live && setHtml(text))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [which]);
  return (
    // Full height while "Loading…" shows: the text fills it once it arrives, and the close
    // button stays where the visitor is about to press it.
    <Dialog title={LEGAL_TITLES[which]} onClose={onClose} testId={`legal-${which}`} fullHeight>
      {html !== null ? (
        <LegalText html={html} />
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
