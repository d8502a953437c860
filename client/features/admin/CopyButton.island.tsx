import { useEffect, useState } from "react";
import { defineIsland, eager } from "../../islands/island";

interface Props {
  /** The text copied. */
  value: string;
  /** What is copied, for the button's accessible name ("Copy the SHA-256"). */
  what: string;
}

/** A button that copies a value of the consent record. It needs the browser, so the server
 * renders it hidden and it shows itself once live (the value is on the page either way). */
function CopyButton({ value, what }: Props) {
  const [live, setLive] = useState(false);
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => setLive(typeof navigator !== "undefined" && Boolean(navigator.clipboard)), []);
  useEffect(() => {
    if (state === "idle") return;
    const timer = setTimeout(() => setState("idle"), 2_000);
    return () => clearTimeout(timer);
  }, [state]);

  const copy = () => {
    navigator.clipboard.writeText(value).then(
      () => setState("copied"),
      () => setState("failed"),
    );
  };

  return (
    <span className={live ? "ml-2 inline-flex items-center gap-2" : "hidden"}>
      <button
        type="button"
        aria-label={`Copy ${what}`}
        className="rounded border border-slate-300 bg-white px-2 py-0.5 text-xs font-bold text-slate-900 hover:bg-slate-100"
        onClick={copy}
      >
        Copy
      </button>
      <span role="status" className="text-xs text-slate-700">
        {state === "copied" ? "Copied" : state === "failed" ? "Not copied: select the text instead" : ""}
      </span>
    </span>
  );
}

export default eager(defineIsland("CopyButton", CopyButton));
