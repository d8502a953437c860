import type { FormValues } from "./types";

/** A form's fields as name to text (a file input, which these forms do not have, reads as ""). */
export function formValues(form: HTMLFormElement): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of new FormData(form).entries()) values[name] = typeof value === "string" ? value : "";
  return values;
}

/** What a refused form post sent in a field of one text (`FormValues`, which the server kept
 * for the form's page), "" when it sent none. */
export const keptText = (kept: FormValues, name: string): string => kept.text[name] ?? "";

/** What a refused form post sent in a field of several texts, [] when it sent none. */
export const keptList = (kept: FormValues, name: string): string[] => kept.lists[name] ?? [];
