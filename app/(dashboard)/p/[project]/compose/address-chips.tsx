"use client";

import * as React from "react";
import { XIcon } from "lucide-react";
import type { Address } from "@/lib/schemas/common";
import { EMAIL_PATTERN } from "@/lib/schemas/patterns";
import { endsWithSeparator, splitAddressList, splitNamedAddress, withoutTrailingSeparators } from "@/lib/messages/address-text";
import { cn } from "@/lib/utils";

/** `Ada Lovelace <ada@example.com>`, or a bare address → an address object (linear in what was pasted). */
export function parseTypedAddress(text: string): Address | null {
  const value = withoutTrailingSeparators(text.trim());
  if (!value) return null;
  const m = splitNamedAddress(value);
  if (m) return m.name ? { email: m.email, name: m.name } : { email: m.email };
  return { email: value };
}

/**
 * Recipients as chips: type an address (optionally `Name <address>`) and press Enter, comma
 * or Tab; paste a list; Backspace in the empty box removes the last one. Malformed chips stay
 * (so nothing typed is lost) and are marked; the form's schema names them at the field.
 */
export function AddressChips({
  id,
  label,
  value,
  onChange,
  onBlur,
  error,
  placeholder = "name@example.com or Name <name@example.com>",
}: {
  id: string;
  label: string;
  value: Address[];
  onChange: (next: Address[]) => void;
  onBlur?: () => void;
  error?: string;
  placeholder?: string;
}) {
  const [draft, setDraft] = React.useState("");
  const errorId = `${id}-error`;

  function commit(text: string) {
    const parts = splitAddressList(text).map(parseTypedAddress).filter((a): a is Address => a !== null);
    if (parts.length) onChange([...value, ...parts]);
    setDraft("");
  }

  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <div
        className={cn(
          "flex min-h-9 flex-wrap items-center gap-1.5 rounded-md border bg-background px-2 py-1.5 focus-within:outline-2 focus-within:outline-ring",
          error && "border-destructive",
        )}
      >
        {value.map((a, i) => {
          const bad = !EMAIL_PATTERN.test(a.email);
          const shown = a.name ? `${a.name} <${a.email}>` : a.email;
          return (
            <span
              key={`${a.email}-${i}`}
              data-testid={`${id}-chip`}
              className={cn(
                "inline-flex max-w-full items-center gap-1 rounded-full border bg-muted px-2 py-0.5 text-xs",
                bad && "border-destructive bg-destructive/10 text-destructive dark:text-red-300",
              )}
            >
              <span className="truncate" title={shown}>
                {shown}
              </span>
              {/* 24 px to hit (WCAG 2.2 target size) in a 20 px chip: the negative margins keep the chip's height. */}
              <button
                type="button"
                className="-my-1 -mr-1.5 flex size-6 shrink-0 items-center justify-center rounded-full hover:bg-foreground/10"
                aria-label={`Remove ${a.email} from ${label}`}
                onClick={() => onChange(value.filter((_, j) => j !== i))}
              >
                <XIcon className="size-3" aria-hidden="true" />
              </button>
            </span>
          );
        })}
        <input
          id={id}
          value={draft}
          onChange={(e) => {
            const text = e.target.value;
            if (endsWithSeparator(text)) commit(text);
            else setDraft(text);
          }}
          onKeyDown={(e) => {
            if ((e.key === "Enter" || e.key === "Tab") && draft.trim()) {
              e.preventDefault();
              commit(draft);
            } else if (e.key === "Backspace" && !draft && value.length) {
              onChange(value.slice(0, -1));
            }
          }}
          onPaste={(e) => {
            const text = e.clipboardData.getData("text");
            if (/[,;\n]/.test(text)) {
              e.preventDefault();
              commit(text);
            }
          }}
          onBlur={() => {
            if (draft.trim()) commit(draft);
            onBlur?.();
          }}
          placeholder={value.length ? "" : placeholder}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className="min-w-[12rem] flex-1 bg-transparent text-sm outline-none placeholder:text-muted-foreground"
        />
      </div>
      {error && (
        <p id={errorId} role="alert" className="text-xs font-medium text-destructive dark:text-red-300">
          {error}
        </p>
      )}
    </div>
  );
}
