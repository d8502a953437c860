import { lazy, Suspense, useRef, useState } from "react";
import { defineIsland } from "../../islands/island";
import { isPlainClick } from "../../lib/plainClick";
import { REGISTER_PATH } from "./paths";

// Loaded when first opened, so the button's own chunk stays small.
const RegistrationDialog = lazy(() => import("./dialogs").then((m) => ({ default: m.RegistrationDialog })));

interface Props {
  label: string;
  className: string;
  /** The company's info address, where registration drafts go. */
  infoEmail: string;
}

/** A registration button ('Get Started Today', the closing call to action): opens the
 * header's registration modal. A link to the registration request form, which is where it
 * leads without JavaScript (and on a modified click). */
function RegisterButton({ label, className, infoEmail }: Props) {
  const [open, setOpen] = useState(false);
  const link = useRef<HTMLAnchorElement>(null);
  return (
    <>
      <a
        ref={link}
        href={REGISTER_PATH}
        aria-haspopup="dialog"
        onClick={(event) => {
          if (!isPlainClick(event)) return;
          event.preventDefault();
          setOpen(true);
        }}
        className={className}
      >
        {label}
      </a>
      {open ? (
        <Suspense fallback={null}>
          <RegistrationDialog infoEmail={infoEmail} onClose={() => setOpen(false)} returnFocusTo={link.current} />
        </Suspense>
      ) : null}
    </>
  );
}

export default defineIsland("RegisterButton", RegisterButton);
