// Mail drafts (docs/product.md, "Accounts"): the account and application flows compose an e-mail to the
// company's info address and hand it to the visitor's mail program.

/** A mailto: URL with its subject and body (RFC 6068: line breaks as CRLF, everything
 * percent-encoded). */
export function mailtoUrl(to: string, subject: string, body: string): string {
  const encode = (text: string) => encodeURIComponent(text.replace(/\r?\n/g, "\r\n"));
  return `mailto:${to}?subject=${encode(subject)}&body=${encode(body)}`;
}

/** Opens the draft in the visitor's mail program, as a click on a mailto: link would. Must
 * run inside the visitor's click or submit, or the browser may refuse to open it. */
export function openMailDraft(url: string): void {
  const link = document.createElement("a");
  link.href = url;
  link.rel = "noopener";
  link.click();
}
