"use client";

import { Trash2Icon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { cn } from "@/lib/utils";

export type NameValue = { name: string; value: string };

export type NameValueRowsProps = {
  id: string;
  legend: string;
  rows: NameValue[];
  onChange: (rows: NameValue[]) => void;
  errors?: { name?: string; value?: string }[];
  namePlaceholder: string;
  valuePlaceholder: string;
};

/**
 * The rows of tags or custom headers (./name-value-rows.tsx adds them), each with its own
 * error. Values are single-line inputs; a pasted line break stays in the value so the schema
 * refuses it at the field rather than the browser silently dropping it.
 */
export function NameValueRowList({ id, legend, rows, onChange, errors, namePlaceholder, valuePlaceholder }: NameValueRowsProps) {
  const set = (i: number, patch: Partial<NameValue>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <>
      {rows.map((row, i) => {
        const err = errors?.[i];
        return (
          <div key={i} className="grid grid-cols-[1fr_1fr_auto] items-start gap-2">
            <div>
              <Input
                id={`${id}-${i}-name`}
                aria-label={`${legend} ${i + 1} name`}
                placeholder={namePlaceholder}
                value={row.name}
                aria-invalid={err?.name ? true : undefined}
                onChange={(e) => set(i, { name: e.target.value })}
              />
              {err?.name && <p role="alert" className="mt-1 text-xs font-medium text-destructive dark:text-red-300">Name: {err.name}</p>}
            </div>
            <div>
              <textarea
                id={`${id}-${i}-value`}
                aria-label={`${legend} ${i + 1} value`}
                placeholder={valuePlaceholder}
                rows={1}
                value={row.value}
                aria-invalid={err?.value ? true : undefined}
                onChange={(e) => set(i, { value: e.target.value })}
                className={cn(
                  "flex min-h-9 w-full resize-none rounded-md border bg-background px-3 py-2 text-sm leading-tight focus-visible:outline-2 focus-visible:outline-ring",
                  err?.value && "border-destructive",
                )}
              />
              {err?.value && <p role="alert" className="mt-1 text-xs font-medium text-destructive dark:text-red-300">Value: {err.value}</p>}
            </div>
            <Button type="button" variant="ghost" size="icon" aria-label={`Remove ${legend.toLowerCase()} ${i + 1}`} onClick={() => onChange(rows.filter((_, j) => j !== i))}>
              <Trash2Icon aria-hidden="true" />
            </Button>
          </div>
        );
      })}
    </>
  );
}
