"use client";

import * as React from "react";
import { parseMergeJson } from "@/lib/schemas/templates-form";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";

/** Merge data as a form (one field per variable found) or as JSON; both edit the same object. */
export function VariablesPanel({ variables, data, onChange }: { variables: string[]; data: Record<string, unknown>; onChange: (d: Record<string, unknown>) => void }) {
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
        {variables.map((v) => (
          <div key={v} className="space-y-1">
            <label htmlFor={`tv-${v}`} className="font-mono text-xs">{v}</label>
            <Input
              id={`tv-${v}`}
              value={typeof data[v] === "string" ? (data[v] as string) : data[v] === undefined ? "" : JSON.stringify(data[v])}
              onChange={(e) => {
                const next = { ...data };
                if (e.target.value === "") delete next[v];
                else next[v] = e.target.value;
                onChange(next);
              }}
            />
          </div>
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
