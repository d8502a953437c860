import { type AccountType, MAX_CHARS, type Values } from "./accounts";
import { FieldMessage, INPUT, LABEL } from "./parts";
import { type FieldSpec, REGISTRATION_FIELDS } from "./registration";

interface Props {
  type: AccountType;
  /** Prefix of the controls' ids (one form of each kind per page). */
  idPrefix: string;
  /** "native": the header modal, where the browser's own checks are the only ones (required,
   * e-mail, tel and URL types); "custom": the request form, whose script or server shows the
   * spec's messages, so the browser checks nothing. */
  checks: "native" | "custom";
  /** Values to start with (the request form answered with an error keeps what was typed). */
  values?: Values;
  /** The first broken rule: the field it is about and its message, shown under the field. */
  error?: { field: string; message: string };
}

/** One registration type's fields, in the spec's order (section 3), with its option lists
 * (section 5). Textareas have three rows; selects start on an empty option. */
export function RegistrationFields({ type, idPrefix, checks, values = {}, error }: Props) {
  const native = checks === "native";
  const field = (spec: FieldSpec) => {
    const id = `${idPrefix}-${spec.name}`;
    const hintId = spec.hint ? `${id}-hint` : undefined;
    const isInvalid = error?.field === spec.name;
    const errorId = `${id}-error`;
    const describedBy = [isInvalid ? errorId : undefined, hintId].filter(Boolean).join(" ") || undefined;
    const common = {
      id,
      name: spec.name,
      required: native,
      "aria-required": native ? undefined : true,
      "aria-invalid": isInvalid || undefined,
      "aria-describedby": describedBy,
      defaultValue: values[spec.name] ?? "",
      className: INPUT,
    };
    const wide = spec.kind === "textarea" || spec.name === "email" || spec.name === "address" || spec.name === "website";
    return (
      <div key={spec.name} className={wide ? "sm:col-span-2" : ""}>
        <label htmlFor={id} className={LABEL}>
          {spec.label}
        </label>
        {spec.kind === "select" ? (
          <select {...common}>
            <option value="">Select {spec.label.toLowerCase()}</option>
            {(spec.options ?? []).map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        ) : spec.kind === "textarea" ? (
          <textarea {...common} rows={3} maxLength={MAX_CHARS[spec.name]} />
        ) : (
          <input
            {...common}
            type={spec.kind}
            maxLength={MAX_CHARS[spec.name]}
            autoComplete={spec.autoComplete}
            inputMode={spec.kind === "tel" ? "tel" : undefined}
            placeholder={spec.kind === "url" ? "https://" : undefined}
          />
        )}
        {isInvalid && error ? <FieldMessage id={errorId} message={error.message} /> : null}
        {spec.hint ? (
          <p id={hintId} className="mt-1 text-sm text-slate-600">
            {spec.hint}
          </p>
        ) : null}
      </div>
    );
  };
  return <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">{REGISTRATION_FIELDS[type].map(field)}</div>;
}
