import { HONEYPOT_FIELD } from "../lib/honeypot";

/** The honeypot field every public form carries (client/lib/honeypot.ts): out of sight, out
 * of the tab order, and read by no screen reader. */
export function Honeypot() {
  return (
    <div className="sr-only" aria-hidden="true">
      <label>
        Leave this field empty
        <input type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
      </label>
    </div>
  );
}
