import { type MouseEvent, useState } from "react";
import { defineIsland } from "../../islands/island";
import { isPlainClick } from "../../lib/plainClick";
import { LegalDialog } from "./LegalDialog";
import { LEGAL_PATHS, LEGAL_TITLES, type LegalDocument } from "./legal";

interface Props {
  document: LegalDocument;
  className: string;
}

/** A link to /privacy or /terms that, once live, opens the text in a modal instead: it works
 * before and without JavaScript, and keeps the visitor on the page with it. */
function LegalLink({ document, className }: Props) {
  const [open, setOpen] = useState(false);
  const show = (event: MouseEvent<HTMLAnchorElement>) => {
    // A new tab or window (modifier keys, middle button) gets the page, as a link should.
    if (!isPlainClick(event)) return;
    event.preventDefault();
    setOpen(true);
  };
  return (
    <>
      <a href={LEGAL_PATHS[document]} className={className} onClick={show}>
        {LEGAL_TITLES[document]}
      </a>
      {open ? <LegalDialog document={document} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

export default defineIsland("LegalLink", LegalLink);
