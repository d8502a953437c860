import { useState } from "react";
import { defineIsland } from "../../islands/island";
import { LegalDialog } from "../legal/LegalDialog";
import type { LegalDocument } from "../legal/legal";
import { CallbackForm } from "./CallbackForm";
import { CallbackStatusSheet } from "./CallbackStatusSheet";
import type { CallbackWindow } from "./callbackWindow";

interface Props {
  serviceSlug: string;
  /** The number to call for this service: ten digits. */
  phone: string;
  consentText: string;
  /** True when the TrustedForm script runs on this page. */
  certification: boolean;
  /** On the form's own page, the server's answer to a refused post: what it sent, and why. */
  values?: Record<string, string>;
  refusal?: string;
}

/** 'Prefer a Callback?': the form, the legal texts its consent wording opens, and the
 * 'Callback status' sheet after a request was accepted. */
function Callback({ serviceSlug, phone, consentText, certification, values, refusal }: Props) {
  const [document, setDocument] = useState<LegalDocument | null>(null);
  const [sheet, setSheet] = useState<{ window: CallbackWindow; returnFocusTo: HTMLElement | null } | null>(null);
  return (
    <>
      <CallbackForm
        serviceSlug={serviceSlug}
        consentText={consentText}
        certification={certification}
        values={values}
        refusal={refusal}
        onLegal={setDocument}
        onSubmitted={(window, returnFocusTo) => setSheet({ window, returnFocusTo })}
      />
      {document ? <LegalDialog document={document} onClose={() => setDocument(null)} /> : null}
      {sheet ? (
        <CallbackStatusSheet
          window={sheet.window}
          returnFocusTo={sheet.returnFocusTo}
          phone={phone}
          service={serviceSlug}
          onClose={() => setSheet(null)}
        />
      ) : null}
    </>
  );
}

export default defineIsland("Callback", Callback);
