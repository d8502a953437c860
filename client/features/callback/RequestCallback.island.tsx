import { defineIsland } from "../../islands/island";

/** The phone bottom bar's 'Request Callback': brings the callback form into view and puts
 * the cursor in its first field. */
function RequestCallback({ className }: { className: string }) {
  const requestCallback = () => {
    const section = document.getElementById("callback");
    section?.scrollIntoView({ behavior: "smooth", block: "start" });
    section?.querySelector<HTMLInputElement>("[data-first-field]")?.focus({ preventScroll: true });
  };
  return (
    <button type="button" onClick={requestCallback} className={className}>
      Request Callback
    </button>
  );
}

export default defineIsland("RequestCallback", RequestCallback);
