/** The fields of a click that say where the visitor wants the link to open. */
interface ClickKeys {
  button: number;
  metaKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/** A plain left click: the page may handle it (open a dialog). A modified or middle click
 * wants a new tab or window, and gets the link's page as any link would. */
export function isPlainClick(event: ClickKeys): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}
