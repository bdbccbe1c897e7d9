"use client";

import * as React from "react";
import { Textarea } from "@/components/ui/textarea";

/**
 * One list or section of the merge data (`items`, with `items[].name` inside), edited as JSON
 * right in the form, since its shape (a list of objects, an object, a flag) is the author's.
 * The inner names found in the template are listed as the hint.
 */
export function SectionField({ name, inner, value, onChange }: { name: string; inner: string[]; value: unknown; onChange: (v: unknown) => void }) {
  const shown = React.useMemo(() => (value === undefined ? "" : JSON.stringify(value, null, 2)), [value]);
  const [text, setText] = React.useState(shown);
  const [error, setError] = React.useState<string | null>(null);
  // A value set from outside (a sample set, the JSON tab) replaces the text; the user's own typing is kept.
  React.useEffect(() => {
    setText((current) => (current.trim() && safeParse(current) !== undefined && JSON.stringify(safeParse(current)) === JSON.stringify(value) ? current : shown));
  }, [shown, value]);
  const id = `tv-${name}`;
  const hintId = `${id}-hint`;
  const example = inner.length ? `[{ ${inner.map((f) => `"${f}": …`).join(", ")} }]` : "[…] or true";
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="font-mono text-xs">{name}</label>
      <Textarea
        id={id}
        rows={3}
        className="font-mono text-xs"
        value={text}
        aria-describedby={hintId}
        aria-invalid={error ? true : undefined}
        onChange={(e) => {
          setText(e.target.value);
          if (!e.target.value.trim()) {
            setError(null);
            onChange(undefined);
            return;
          }
          const parsed = safeParse(e.target.value);
          if (parsed === undefined) setError(`${name}: is not valid JSON`);
          else {
            setError(null);
            onChange(parsed);
          }
        }}
      />
      <p id={hintId} className="text-xs text-muted-foreground">
        A list or section, as JSON: <code className="font-mono">{example}</code>
      </p>
      {error && <p role="alert" className="text-xs font-medium text-destructive dark:text-red-300">{error}</p>}
    </div>
  );
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
