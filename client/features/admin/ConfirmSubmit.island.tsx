import { type MouseEvent, useEffect, useRef, useState } from "react";
import { defineIsland } from "../../islands/island";

interface Props {
  /** The submit button's text ("Delete these records"). */
  label: string;
  /** What the button asks once live, before the form is sent ("Delete 3 records for good?"). */
  question: string;
  /** The button that sends the form after the question. */
  confirmLabel: string;
  /** An accessible name for the first button, when its text alone is not enough. */
  ariaLabel?: string;
  /** "danger" (red) or "link" (a text button in a table). */
  tone: "danger" | "link";
}

const CLASSES = {
  danger: "rounded-lg bg-red-700 px-4 py-2 font-bold text-white hover:bg-red-800",
  link: "font-bold text-blue-800 underline",
};

/** The submit button of a form that deletes something. Without JavaScript it sends the form
 * (the server's own rules apply); once live, the first press asks the question in place and
 * only "confirmLabel" sends the form, while Cancel (or Escape) puts the button back. */
function ConfirmSubmit({ label, question, confirmLabel, ariaLabel, tone }: Props) {
  const [asking, setAsking] = useState(false);
  const confirm = useRef<HTMLButtonElement>(null);
  const first = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);

  useEffect(() => {
    if (asking) confirm.current?.focus();
    else if (wasAsking.current) first.current?.focus();
    wasAsking.current = asking;
  }, [asking]);

  const ask = (event: MouseEvent<HTMLButtonElement>) => {
    event.preventDefault();
    setAsking(true);
  };

  if (!asking) {
    return (
      <button ref={first} type="submit" aria-label={ariaLabel} className={CLASSES[tone]} onClick={ask}>
        {label}
      </button>
    );
  }
  return (
    // biome-ignore lint/a11y/useSemanticElements: a question and its two buttons inside a line of text: a <fieldset> is a block for form fields
    <span
      role="group"
      aria-label={question}
      className="inline-flex flex-wrap items-center gap-2"
      onKeyDown={(event) => {
        if (event.key === "Escape") setAsking(false);
      }}
    >
      <span className="font-bold text-red-900">{question}</span>
      <button ref={confirm} type="submit" className="rounded-lg bg-red-700 px-3 py-1 font-bold text-white hover:bg-red-800">
        {confirmLabel}
      </button>
      <button
        type="button"
        className="rounded-lg border border-slate-300 bg-white px-3 py-1 font-bold text-slate-900 hover:bg-slate-100"
        onClick={() => setAsking(false)}
      >
        Cancel
      </button>
    </span>
  );
}

export default defineIsland("ConfirmSubmit", ConfirmSubmit);
