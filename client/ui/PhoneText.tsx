/** Text whose phone numbers, written (xxx) xxx-xxxx, never break across lines. */
export function PhoneText({ text }: { text: string }) {
  return (
    <>
      {text.split(/(\(\d{3}\) \d{3}-\d{4})/).map((part, i) =>
        i % 2 === 1 ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the text's pieces, fixed: a piece's place is its identity
          <span key={i} className="whitespace-nowrap">
            {part}
          </span>
        ) : (
          part
        ),
      )}
    </>
  );
}
