import { useEffect, useRef, useState } from "react";
import { defineIsland } from "../../islands/island";
import { ScriptButton } from "../../ui/ScriptButton";
import { SpriteIcon } from "../../ui/SpriteIcon";

interface Props {
  /** The id of the server-rendered element this button shows and hides. */
  controls: string;
  /** "menu": the phone menu's icon button; "dropdown": a labelled button with a chevron,
   * which also closes when focus leaves it and its panel. */
  kind: "menu" | "dropdown";
  label: string;
}

// Kept here rather than in the props, which travel in the page.
const CLASSES = {
  menu: "rounded-lg border border-slate-300 p-2 text-slate-900",
  dropdown: "items-center gap-1 whitespace-nowrap font-normal text-slate-800 hover:underline",
};

// Where each shows: the button while scripts run, the link standing in for it when none do.
const BUTTON_DISPLAY = { menu: "noscript:hidden", dropdown: "hidden lg:flex lg:noscript:hidden" };
const LINK_DISPLAY = { menu: "hidden noscript:inline-flex", dropdown: "hidden lg:noscript:flex" };

const inDialog = (target: EventTarget | null) => target instanceof Element && target.closest("dialog") !== null;

/** A disclosure button for a panel the server rendered (its links are in the HTML for
 * crawlers and stay put without JavaScript). Opening sets `data-open` on the panel, which
 * its classes show; Escape closes and returns focus here, and so does a press outside; a link
 * followed from inside the panel closes it too.
 *
 * Without JavaScript the button is replaced by a link to the panel (`#controls`), which the
 * panel shows while it is the address's target (`noscript:target:` classes on the panel). */
function Disclosure({ controls, kind, label }: Props) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const panel = document.getElementById(controls);
    if (!panel) return;
    panel.toggleAttribute("data-open", open);
    if (!open) return;
    const inside = (target: EventTarget | null) => target instanceof Node && (panel.contains(target) || !!button.current?.contains(target));
    // A dialog opened from the panel handles its own presses and Escape.
    const onPointer = (event: PointerEvent) => {
      if (!inside(event.target) && !inDialog(event.target)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || inDialog(event.target) || document.querySelector("dialog[open]")) return;
      setOpen(false);
      button.current?.focus();
    };
    const onFocus = (event: FocusEvent) => {
      if (kind === "dropdown" && !inside(event.target)) setOpen(false);
    };
    // A link followed from the panel (About and Contact lead to sections of this same page,
    // where nothing else would close it): the panel has done its job.
    const onLink = (event: MouseEvent) => {
      if (event.target instanceof Element && event.target.closest("a[href]")) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointer);
    document.addEventListener("keydown", onKey);
    document.addEventListener("focusin", onFocus);
    panel.addEventListener("click", onLink);
    return () => {
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("focusin", onFocus);
      panel.removeEventListener("click", onLink);
    };
  }, [open, controls, kind]);

  const face = (shown: boolean) =>
    kind === "menu" ? (
      <>
        <SpriteIcon name={shown ? "x" : "menu"} />
        <span className="sr-only">{shown ? `Close ${label.toLowerCase()}` : label}</span>
      </>
    ) : (
      <>
        {label}
        <SpriteIcon name="chevron-down" className="h-4 w-4" />
      </>
    );

  return (
    <ScriptButton
      ref={button}
      aria-expanded={open}
      aria-controls={controls}
      onClick={() => setOpen((was) => !was)}
      href={`#${controls}`}
      className={CLASSES[kind]}
      buttonClassName={BUTTON_DISPLAY[kind]}
      linkClassName={LINK_DISPLAY[kind]}
      linkChildren={face(false)}
    >
      {face(open)}
    </ScriptButton>
  );
}

export default defineIsland("Disclosure", Disclosure);
