"use client";

import * as React from "react";
import { PlusIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import type { NameValue, NameValueRowsProps } from "./name-value-row-list";

export type { NameValue } from "./name-value-row-list";

/** The rows' inputs load when there is a row to show; reaching for the fieldset starts the download. */
const loadRows = () => import("./name-value-row-list");
const NameValueRowList = React.lazy(() => loadRows().then((m) => ({ default: m.NameValueRowList })));
const preload = () => void loadRows().catch(() => {});

/**
 * Tags and custom headers: rows of name and value (./name-value-row-list.tsx), and the button
 * that adds one. The button stays in place while the rows load, so focus stays on it; each
 * row waiting for its inputs holds their height.
 */
export function NameValueRows({ id, legend, rows, onChange, errors, addLabel, namePlaceholder, valuePlaceholder }: NameValueRowsProps & { addLabel: string }) {
  return (
    <fieldset className="space-y-2" onPointerEnter={preload} onFocus={preload}>
      <legend className="text-sm font-medium">{legend}</legend>
      {rows.length > 0 && (
        <React.Suspense fallback={rows.map((_, i) => <div key={i} className="h-9 animate-pulse rounded-md bg-muted" aria-busy="true" />)}>
          <NameValueRowList id={id} legend={legend} rows={rows} onChange={onChange} errors={errors} namePlaceholder={namePlaceholder} valuePlaceholder={valuePlaceholder} />
        </React.Suspense>
      )}
      <Button type="button" variant="outline" size="sm" onClick={() => onChange([...rows, { name: "", value: "" } satisfies NameValue])}>
        <PlusIcon aria-hidden="true" />
        {addLabel}
      </Button>
    </fieldset>
  );
}
