/** An e-mail address that, where it must wrap, wraps after its @ rather than spill out of a
 * narrow box (a footer column, a dialog on a small phone). */
export function EmailText({ address }: { address: string }) {
  const at = address.lastIndexOf("@") + 1;
  return (
    <>
      {address.slice(0, at)}
      <wbr />
      {address.slice(at)}
    </>
  );
}
