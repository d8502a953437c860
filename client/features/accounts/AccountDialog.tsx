// The account dialog (docs/product.md, "Accounts"): step 1 chooses the account type, step 2 logs
// in or signs up, with a tab for each; a successful sign-up ends on the success panel.
// Loaded when first opened (client/features/accounts/dialogs.ts).

import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { Dialog } from "../../ui/Dialog";
import { type AccountType, TYPE_LABEL } from "./accounts";
import { LoginPanel } from "./LoginPanel";
import { ACCOUNT_CHOICES, SECONDARY, SuccessPanel, TypeChoice } from "./parts";
import { SignupPanel } from "./SignupPanel";

export type AccountTab = "login" | "signup";

type View = { step: "choose" } | { step: "form"; type: AccountType; tab: AccountTab } | { step: "done" };

interface Props {
  brand: string;
  infoEmail: string;
  onClose: () => void;
  returnFocusTo: HTMLElement | null;
}

const TABS: readonly { tab: AccountTab; label: string }[] = [
  { tab: "login", label: "Login" },
  { tab: "signup", label: "Sign Up" },
];

export default function AccountDialog({ brand, infoEmail, onClose, returnFocusTo }: Props) {
  const [view, setView] = useState<View>({ step: "choose" });
  // Failed logins: kept across tabs and types, gone with the dialog (closing resets it).
  const [attempts, setAttempts] = useState(0);
  const body = useRef<HTMLDivElement>(null);
  const chosen = useRef<AccountType | null>(null);
  const first = useRef(true);

  // Each step moves focus to its first control (the Dialog does it on opening).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the step and the form's account type are what triggers it, not what it reads
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const root = body.current;
    if (!root) return;
    const target =
      view.step === "choose" && chosen.current
        ? root.querySelector<HTMLElement>(`[data-type="${chosen.current}"]`)
        : (root.querySelector<HTMLElement>("[data-autofocus]:not([disabled])") ??
          root.querySelector<HTMLElement>("button:not([disabled]), input:not([disabled])"));
    target?.focus();
  }, [view.step, view.step === "form" ? view.type : null]);

  const switchTab = (tab: AccountTab) => {
    if (view.step !== "form" || view.tab === tab) return;
    setView({ ...view, tab });
    document.getElementById(`account-tab-${tab}`)?.focus();
  };

  const onTabKey = (event: KeyboardEvent<HTMLDivElement>) => {
    if (view.step !== "form") return;
    const keys: Record<string, AccountTab | undefined> = {
      ArrowLeft: view.tab === "login" ? "signup" : "login",
      ArrowRight: view.tab === "login" ? "signup" : "login",
      Home: "login",
      End: "signup",
    };
    const next = keys[event.key];
    if (next) {
      event.preventDefault();
      switchTab(next);
    }
  };

  return (
    <Dialog title={`Welcome to ${brand}`} onClose={onClose} testId="account-dialog" returnFocusTo={returnFocusTo}>
      <div ref={body}>
        {view.step === "choose" ? (
          <>
            <p className="mb-4 text-slate-700">Choose your account type to log in or sign up.</p>
            <TypeChoice
              label="Account types"
              choices={ACCOUNT_CHOICES}
              onChoose={(type) => {
                chosen.current = type;
                setView({ step: "form", type, tab: "login" });
              }}
            />
          </>
        ) : null}
        {view.step === "form" ? (
          <>
            <button type="button" onClick={() => setView({ step: "choose" })} className={`${SECONDARY} mb-4 px-3 py-1.5 text-sm`}>
              <span aria-hidden="true">←</span> Back
            </button>
            <div
              role="tablist"
              aria-label="Login or sign up"
              className="mb-4 grid grid-cols-2 rounded-xl bg-slate-100 p-1"
              onKeyDown={onTabKey}
            >
              {TABS.map(({ tab, label }) => {
                const selected = view.tab === tab;
                return (
                  <button
                    key={tab}
                    id={`account-tab-${tab}`}
                    type="button"
                    role="tab"
                    aria-selected={selected}
                    aria-controls="account-panel"
                    onClick={() => switchTab(tab)}
                    className={`rounded-lg px-4 py-2 font-bold ${selected ? "bg-white text-blue-800 shadow" : "text-slate-700 hover:text-slate-900"}`}
                  >
                    {label}
                  </button>
                );
              })}
            </div>
            <div id="account-panel" role="tabpanel" aria-labelledby={`account-tab-${view.tab}`}>
              <h3 className="text-2xl font-bold text-slate-900">{view.tab === "login" ? "Login to Continue" : "Create Your Account"}</h3>
              <p className="mb-4 text-slate-700">
                {view.tab === "login" ? `Access ${TYPE_LABEL[view.type]} portal` : `Sign up for ${TYPE_LABEL[view.type]} access`}
              </p>
              {/* A new panel for each tab and type: switching resets fields and status. */}
              {view.tab === "login" ? (
                <LoginPanel key={`login-${view.type}`} attempts={attempts} onFailed={setAttempts} />
              ) : (
                <SignupPanel
                  key={`signup-${view.type}`}
                  type={view.type}
                  infoEmail={infoEmail}
                  onSuccess={() => setView({ step: "done" })}
                />
              )}
            </div>
          </>
        ) : null}
        {view.step === "done" ? <SuccessPanel onClose={onClose} /> : null}
      </div>
    </Dialog>
  );
}
