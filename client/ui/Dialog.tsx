import { type ReactNode, useEffect, useId, useRef } from "react";

interface DialogProps {
  title: string;
  /** A small label above the title, e.g. "Callback status". */
  eyebrow?: string;
  onClose: () => void;
  children: ReactNode;
  /** "sheet": anchored to the bottom of the window at every width (up to 32rem wide,
   * centred); "modal": centred. */
  variant?: "modal" | "sheet";
  /** Extra props for the dialog element (pointer handlers for the auto-close pause). */
  onPointerEnter?: () => void;
  onPointerLeave?: () => void;
  testId?: string;
  /** Where focus goes on close when the element that had it is gone or disabled. */
  returnFocusTo?: HTMLElement | null;
  /** "alertdialog" for a message that needs the visitor's acknowledgement. */
  role?: "dialog" | "alertdialog";
  /** The id of the element holding the dialog's message (aria-describedby). */
  describedBy?: string;
  /** At most 95% of the viewport's height instead of 90% (the registration modal). */
  tall?: boolean;
  /** A line under the title. */
  subtitle?: string;
  /** Up to 64rem wide instead of 42rem (lists shown as a grid). */
  wide?: boolean;
  /** Kept below the scrolling content, always in view. */
  footer?: ReactNode;
  /** As tall as it may be from the start, for content that arrives after the dialog opens
   * and always fills it (the legal texts): the close button never moves under a pointer. */
  fullHeight?: boolean;
}

/** The shape of a dialog's action buttons and links; each adds its colours (and its width). */
export const DIALOG_BUTTON = "inline-flex items-center justify-center rounded-xl px-5 py-3 font-bold";

const FOCUSABLE =
  'a[href]:not([tabindex="-1"]), button:not([disabled]):not([tabindex="-1"]), input:not([disabled]):not([tabindex="-1"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** A modal dialog on the native <dialog> element: labelled by its title, the rest of the
 * page inert, focus moved in on open, kept inside with Tab, returned to where it was on
 * close. Closes on Escape, the close button and a click on the backdrop. Mounted only
 * while open, so it costs the server HTML nothing. */
export function Dialog({
  title,
  eyebrow,
  onClose,
  children,
  variant = "modal",
  onPointerEnter,
  onPointerLeave,
  testId,
  returnFocusTo,
  role,
  describedBy,
  tall,
  subtitle,
  wide,
  footer,
  fullHeight,
}: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const closeRef = useRef(onClose);
  closeRef.current = onClose;

  // biome-ignore lint/correctness/useExhaustiveDependencies: once per opening, focus returning where it was then
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    // A button disabled while its request ran has already lost focus to <body>.
    const active =
      document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
    const opener = active ?? returnFocusTo ?? null;
    if (!dialog.open) dialog.showModal();
    const first = dialog.querySelector<HTMLElement>("[data-autofocus]") ?? dialog.querySelector<HTMLElement>(FOCUSABLE);
    first?.focus();
    return () => {
      if (dialog.open) dialog.close();
      opener?.focus();
    };
    // Runs once per opening: the dialog is mounted only while open.
  }, []);

  const keepFocusInside = (event: React.KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== "Tab") return;
    // A dialog opened from inside this one keeps its own focus.
    if (event.target instanceof Element && event.target.closest("dialog") !== event.currentTarget) return;
    const items = Array.from(event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE));
    if (items.length === 0) return;
    const first = items[0];
    const last = items[items.length - 1];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  const placement =
    variant === "sheet"
      ? "mb-0 mt-auto w-full max-w-lg rounded-t-2xl"
      : `my-auto w-[calc(100%-2rem)] ${wide ? "max-w-6xl" : "max-w-2xl"} rounded-2xl`;

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      role={role === "alertdialog" ? role : undefined}
      aria-describedby={describedBy}
      data-testid={testId}
      // Reset what a dialog would inherit from where its island sits (a button row's nowrap).
      className={`${placement} ${tall ? "max-h-[95vh]" : "max-h-[90vh]"} ${fullHeight ? "h-[90vh]" : ""} whitespace-normal bg-white p-0 text-left text-base font-normal text-slate-900 shadow-2xl backdrop:bg-slate-900/60`}
      onCancel={(event) => {
        // Escape closes the top dialog only: React passes a nested dialog's cancel up to its parents.
        if (event.target !== event.currentTarget) return;
        event.preventDefault();
        closeRef.current();
      }}
      onClick={(event) => {
        // A click on the dialog element itself (not its content) is a click on the backdrop.
        if (event.target === event.currentTarget) closeRef.current();
      }}
      onKeyDown={keepFocusInside}
    >
      {/* Pointer handlers sit on the content, not the dialog: the backdrop belongs to the
          dialog element, so there the pointer would always count as "over it". */}
      <div
        className={`flex ${tall ? "max-h-[95vh]" : "max-h-[90vh]"} ${fullHeight ? "h-full" : ""} flex-col`}
        onPointerEnter={onPointerEnter}
        onPointerLeave={onPointerLeave}
      >
        <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-5 py-4">
          <div>
            {eyebrow ? <p className="text-sm font-bold uppercase tracking-wide text-green-800">{eyebrow}</p> : null}
            <h2 id={titleId} className="text-xl font-bold">
              {title}
            </h2>
            {subtitle ? <p className="mt-0.5 text-sm text-slate-700">{subtitle}</p> : null}
          </div>
          <button
            type="button"
            onClick={() => closeRef.current()}
            className="-m-2 rounded-lg p-2 text-slate-700 hover:bg-slate-100"
            aria-label="Close"
          >
            <svg
              viewBox="0 0 24 24"
              className="h-6 w-6"
              aria-hidden="true"
              focusable="false"
              fill="none"
              stroke="currentColor"
              strokeWidth={2}
              strokeLinecap="round"
            >
              <path d="M18 6 6 18M6 6l12 12" />
            </svg>
          </button>
        </div>
        <div className={`${fullHeight ? "flex-1" : ""} overflow-y-auto px-5 py-4`}>{children}</div>
        {footer ? <div className="border-t border-slate-200 px-5 py-3">{footer}</div> : null}
      </div>
    </dialog>
  );
}
