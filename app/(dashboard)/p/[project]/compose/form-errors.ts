/**
 * The compose form's errors, as a flat map from a field's dotted path (`to.0.email`,
 * `headers.1.value`) to its first message, and the rules for when a field is checked again —
 * the ones the form had under react-hook-form (mode onTouched, re-checked on change once
 * submitted), kept here without that library's weight (./use-compose-form.ts).
 */
export type FieldErrors = Readonly<Record<string, string>>;
export type Issue = { path: readonly PropertyKey[]; message: string };

/** The first message of each path, as a form shows one per field. */
export function errorsFromIssues(issues: readonly Issue[]): FieldErrors {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join(".");
    if (!(key in errors)) errors[key] = issue.message;
  }
  return errors;
}

const under = (key: string, name: string) => key === name || key.startsWith(`${name}.`);

/** `previous` with what `names` (and everything under them) say replaced by what `checked` says of them. */
export function replaceErrorsOf(previous: FieldErrors, checked: FieldErrors, names: readonly string[]): FieldErrors {
  const kept = Object.entries(previous).filter(([key]) => !names.some((name) => under(key, name)));
  const fresh = Object.entries(checked).filter(([key]) => names.some((name) => under(key, name)));
  return Object.fromEntries([...kept, ...fresh]);
}

/** The rows of a list of objects (`tags.0.name`…): index → field → message. */
export function rowErrorsOf<F extends string>(errors: FieldErrors, name: string, fields: readonly F[]): Partial<Record<F, string>>[] | undefined {
  const rows: Partial<Record<F, string>>[] = [];
  let found = false;
  for (const [key, message] of Object.entries(errors)) {
    const [head, index, field, ...rest] = key.split(".");
    if (head !== name || !/^\d+$/.test(index ?? "") || rest.length || !fields.includes(field as F)) continue;
    found = true;
    const i = Number(index);
    while (rows.length <= i) rows.push({});
    rows[i]![field as F] = message;
  }
  return found ? rows : undefined;
}

/**
 * Whether a typed field is checked now: before the first submit, on leaving it and, once it
 * has been left, on every change; after a submit, on every change.
 */
export function checksOn(event: "change" | "blur", state: { touched: boolean; submitted: boolean }): boolean {
  if (state.submitted) return event === "change";
  return event === "blur" || state.touched;
}
