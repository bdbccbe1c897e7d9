"use client";

import type { SuggestedMapping } from "@/lib/batch/mapping";
import { Input } from "@/components/ui/input";
import { NativeSelectField } from "@/components/ui/native-select-field";

const NONE = "";

function ColumnSelect({ id, label, headers, value, onChange, required }: { id: string; label: string; headers: string[]; value: string | undefined; onChange: (v: string | undefined) => void; required?: boolean }) {
  return (
    <NativeSelectField
      id={id}
      label={label}
      value={value ?? NONE}
      onChange={(e) => onChange(e.target.value || undefined)}
      placeholder={required ? "Choose a column…" : "None"}
      choices={headers.map((h) => ({ value: h, label: h }))}
    />
  );
}

/** Columns → email, name, and merge variables (each other column, renamable or left out). */
export function MappingFields({ headers, mapping, onChange }: { headers: string[]; mapping: SuggestedMapping; onChange: (m: SuggestedMapping) => void }) {
  const used = new Set([mapping.email, mapping.name, mapping.firstName, mapping.lastName].filter(Boolean));
  const others = headers.filter((h) => !used.has(h));
  return (
    <div className="space-y-4">
      <div className="grid gap-3 md:grid-cols-4">
        <ColumnSelect id="map-email" label="Email column" headers={headers} value={mapping.email ?? undefined} onChange={(v) => onChange({ ...mapping, email: v ?? null })} required />
        <ColumnSelect id="map-name" label="Full name column" headers={headers} value={mapping.name} onChange={(v) => onChange({ ...mapping, name: v, ...(v ? { firstName: undefined, lastName: undefined } : {}) })} />
        <ColumnSelect id="map-first" label="First name column" headers={headers} value={mapping.firstName} onChange={(v) => onChange({ ...mapping, firstName: v, ...(v ? { name: undefined } : {}) })} />
        <ColumnSelect id="map-last" label="Last name column" headers={headers} value={mapping.lastName} onChange={(v) => onChange({ ...mapping, lastName: v, ...(v ? { name: undefined } : {}) })} />
      </div>
      {others.length > 0 && (
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium">Merge variables</legend>
          <p className="text-xs text-muted-foreground">Each column below becomes a merge variable of a template, under the name shown. Clear a name to leave the column out.</p>
          <div className="grid gap-2 md:grid-cols-3">
            {others.map((h) => (
              <div key={h} className="flex items-center gap-2">
                <label htmlFor={`var-${h}`} className="w-1/2 truncate text-sm" title={h}>
                  {h}
                </label>
                <Input
                  id={`var-${h}`}
                  className="font-mono text-xs"
                  value={mapping.variables[h] ?? ""}
                  onChange={(e) => {
                    const variables = { ...mapping.variables };
                    if (e.target.value) variables[h] = e.target.value;
                    else delete variables[h];
                    onChange({ ...mapping, variables });
                  }}
                />
              </div>
            ))}
          </div>
        </fieldset>
      )}
    </div>
  );
}
