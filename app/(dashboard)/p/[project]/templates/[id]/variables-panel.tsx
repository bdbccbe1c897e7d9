"use client";

import * as React from "react";
import { formFields, getPath, innerNames, parseMergeJson, setPath } from "@/lib/templates/merge-data";
import { SectionField } from "./section-field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";

/**
 * Merge data as a form (one field per plain or dotted variable found) or as JSON; both edit
 * the same object. Lists and sections (`items`, with `items[].name` inside) need a shape, so
 * each is a JSON field of its own.
 */
export function VariablesPanel({ variables, data, onChange }: { variables: string[]; data: Record<string, unknown>; onChange: (d: Record<string, unknown>) => void }) {
  const { fields, sections } = formFields(variables);
  const [json, setJson] = React.useState(() => JSON.stringify(data, null, 2));
  const [jsonError, setJsonError] = React.useState<string | null>(null);
  const [tab, setTab] = React.useState("form");
  // A sample set loaded from outside replaces the JSON text; the user's own valid JSON is left as typed.
  React.useEffect(() => {
    setJson((current) => {
      const parsed = parseMergeJson(current);
      return "data" in parsed && JSON.stringify(parsed.data) === JSON.stringify(data) ? current : JSON.stringify(data, null, 2);
    });
  }, [data]);
  return (
    <Tabs value={tab} onValueChange={(t) => { if (t === "json") setJson(JSON.stringify(data, null, 2)); setTab(t); }}>
      <TabsList aria-label="Merge data">
        <TabsTrigger value="form">Form</TabsTrigger>
        <TabsTrigger value="json">JSON</TabsTrigger>
      </TabsList>
      <TabsContent value="form" className="space-y-3 pt-3">
        {variables.length === 0 && <p className="text-sm text-muted-foreground">This template uses no merge variables.</p>}
        {fields.map((v) => {
          const value = getPath(data, v);
          return (
            <div key={v} className="space-y-1">
              <label htmlFor={`tv-${v}`} className="font-mono text-xs">{v}</label>
              <Input
                id={`tv-${v}`}
                value={typeof value === "string" ? value : value === undefined ? "" : JSON.stringify(value)}
                onChange={(e) => onChange(setPath(data, v, e.target.value === "" ? undefined : e.target.value))}
              />
            </div>
          );
        })}
        {sections.filter((section) => variables.some((v) => v.startsWith(`${section}[]`))).map((section) => (
          <SectionField
            key={section}
            name={section}
            inner={innerNames(variables, section)}
            value={getPath(data, section)}
            onChange={(value) => onChange(setPath(data, section, value))}
          />
        ))}
      </TabsContent>
      <TabsContent value="json" className="space-y-2 pt-3">
        <label htmlFor="merge-json" className="text-sm font-medium">Merge data (JSON)</label>
        <Textarea
          id="merge-json"
          rows={10}
          className="font-mono text-xs"
          value={json}
          aria-invalid={jsonError ? true : undefined}
          onChange={(e) => {
            setJson(e.target.value);
            const parsed = parseMergeJson(e.target.value);
            if ("error" in parsed) setJsonError(parsed.error);
            else {
              setJsonError(null);
              onChange(parsed.data);
            }
          }}
        />
        {jsonError && <p role="alert" className="text-xs font-medium text-destructive dark:text-red-300">{jsonError}</p>}
      </TabsContent>
    </Tabs>
  );
}
