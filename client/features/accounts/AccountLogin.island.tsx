import { lazy, Suspense, useRef, useState } from "react";
import { defineIsland } from "../../islands/island";
import { isPlainClick } from "../../lib/plainClick";
import { REGISTER_PATH } from "./paths";

// Loaded when first opened, so the link's own chunk stays small.
const AccountDialog = lazy(() => import("./dialogs").then((m) => ({ default: m.AccountDialog })));

interface Props {
  /** "bar": 'Login' in the phone header; "banner": 'Log in' in the desktop header's top
   * banner (where it takes no room from the navigation). */
  place: "bar" | "banner";
  brand: string;
  /** The company's info address, where sign-up drafts go. */
  infoEmail: string;
}

const OUTLINE = "whitespace-nowrap rounded-xl border border-slate-300 px-4 py-2 font-bold text-blue-800 hover:bg-blue-50";

/** Opens the account dialog (docs/product.md, "Accounts"). A link to the registration request form, so
 * without JavaScript it still leads somewhere useful; a modified click opens that page. */
function AccountLogin({ place, brand, infoEmail }: Props) {
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
        className={
          place === "bar"
            ? `${OUTLINE} text-sm`
            : "whitespace-nowrap text-sm font-bold text-white underline underline-offset-4 hover:no-underline"
        }
      >
        {place === "bar" ? "Login" : "Log in"}
      </a>
      {open ? (
        <Suspense fallback={null}>
          <AccountDialog brand={brand} infoEmail={infoEmail} onClose={() => setOpen(false)} returnFocusTo={link.current} />
        </Suspense>
      ) : null}
    </>
  );
}

export default defineIsland("AccountLogin", AccountLogin);
