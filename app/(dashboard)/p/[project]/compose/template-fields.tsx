"use client";

import * as React from "react";
import { useQuery } from "@tanstack/react-query";
import { templateQuery } from "@/lib/queries/templates";
import type { ComposeOptions } from "@/lib/schemas/compose";
import { Input } from "@/components/ui/input";
import { NativeSelectField } from "@/components/ui/native-select-field";

/** A stored template chosen by name, and a field per merge variable it uses. */
export function TemplateFields({
  project,
  templates,
  templateId,
  data,
  onTemplate,
  onData,
  error,
}: {
  project: string;
  templates: ComposeOptions["templates"];
  templateId: string | undefined;
  data: Record<string, string>;
  onTemplate: (id: string | undefined) => void;
  onData: (d: Record<string, string>) => void;
  error?: string;
}) {
  const listed = templates.find((t) => t.id === templateId || t.slug === templateId);
  // The local service lists a template's variables; another service may not, so the template is read.
  const { data: full } = useQuery({ ...templateQuery(project, templateId ?? ""), enabled: Boolean(templateId) && !listed?.variables });
  const variables = listed?.variables ?? full?.variables ?? [];
  return (
    <div className="space-y-4 rounded-md border p-4">
      <NativeSelectField
        id="templateId"
        label="Template"
        value={templateId ?? ""}
        onChange={(e) => onTemplate(e.target.value || undefined)}
        aria-invalid={error ? true : undefined}
        placeholder="Choose a template…"
        choices={templates.map((t) => ({ value: t.id, label: `${t.name}${t.slug ? ` (${t.slug})` : ""}` }))}
      >
        {error && <p role="alert" className="text-xs font-medium text-destructive dark:text-red-300">{error}</p>}
      </NativeSelectField>
      {templateId && variables.length > 0 && (
        <fieldset className="grid gap-3 md:grid-cols-2">
          <legend className="mb-2 text-sm font-medium">Merge variables</legend>
          {variables.map((v) => (
            <div key={v} className="space-y-1">
              <label htmlFor={`var-${v}`} className="font-mono text-xs">
                {v}
              </label>
              <Input id={`var-${v}`} value={data[v] ?? ""} onChange={(e) => onData({ ...data, [v]: e.target.value })} />
            </div>
          ))}
        </fieldset>
      )}
      {templateId && variables.length === 0 && <p className="text-sm text-muted-foreground">This template uses no merge variables.</p>}
    </div>
  );
}
