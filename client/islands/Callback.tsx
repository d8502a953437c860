import { useState } from "react";
import { CallbackForm } from "../components/CallbackForm";
import { CallbackStatusSheet } from "../components/CallbackStatusSheet";
import { LegalDialog, type LegalDocument } from "../components/LegalDialog";
import type { LegalProps } from "../components/legal/LegalText";
import type { CallbackWindow } from "../lib/callbackWindow";
import { defineIsland } from "./island";

interface Props {
  serviceSlug: string;
  /** The number to call for this service: ten digits. */
  phone: string;
  consentText: string;
  /** True when the TrustedForm script runs on this page. */
  certification: boolean;
  /** What the legal texts the consent wording links to are filled with. */
  legal: LegalProps;
}

/** 'Prefer a Callback?': the form, the legal texts its consent wording opens, and the
 * 'Callback status' sheet after a request was accepted. */
function Callback({ serviceSlug, phone, consentText, certification, legal }: Props) {
  const [document, setDocument] = useState<LegalDocument | null>(null);
  const [sheet, setSheet] = useState<{ window: CallbackWindow; returnFocusTo: HTMLElement | null } | null>(null);
  return (
    <>
      <CallbackForm
        serviceSlug={serviceSlug}
        consentText={consentText}
        certification={certification}
        onLegal={setDocument}
        onSubmitted={(window, returnFocusTo) => setSheet({ window, returnFocusTo })}
      />
      {document ? <LegalDialog document={document} onClose={() => setDocument(null)} {...legal} /> : null}
      {sheet ? (
        <CallbackStatusSheet window={sheet.window} returnFocusTo={sheet.returnFocusTo} phone={phone} service={serviceSlug} onClose={() => setSheet(null)} />
      ) : null}
    </>
  );
}

export default defineIsland("Callback", Callback);
