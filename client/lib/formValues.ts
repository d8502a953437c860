/** A form's fields as name to text (a file input, which these forms do not have, reads as ""). */
export function formValues(form: HTMLFormElement): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of new FormData(form).entries()) values[name] = typeof value === "string" ? value : "";
  return values;
}
