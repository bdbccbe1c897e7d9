"use client";

import * as React from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { SaveIcon, Trash2Icon } from "lucide-react";
import { toast } from "@/components/ui/toast";
import type { TemplateSample } from "@/lib/schemas/templates-form";
import { samplesQuery, templateKeys, templateMutations } from "@/lib/queries/templates";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";

/**
 * Named sample-data sets of this template ("long name", "no optional fields"), saved in the
 * dashboard. Its one-field form keeps its own state rather than react-hook-form's: a refusal
 * is told in a toast, there is no field error to place, and the library stays off the
 * template screen's first load (tests/screen-patterns.test.ts, OWN_FORMS).
 */
export function SamplesBar({
  project,
  templateId,
  initial,
  data,
  onLoad,
  canWrite,
}: {
  project: string;
  templateId: string;
  initial: TemplateSample[];
  data: Record<string, unknown>;
  onLoad: (d: Record<string, unknown>) => void;
  canWrite: boolean;
}) {
  const queryClient = useQueryClient();
  const { data: samples = initial } = useQuery({ ...samplesQuery(project, templateId), initialData: initial });
  const [selected, setSelected] = React.useState("");
  const [name, setName] = React.useState("");
  const refresh = () => queryClient.invalidateQueries({ queryKey: templateKeys.samples(project, templateId) });
  // A refusal is told in a toast, as the bar has no room under its box.
  const save = useMutation({
    mutationFn: (v: { name: string }) => templateMutations.saveSample(project, templateId, { name: v.name.trim(), data }),
    onSuccess: async (_r, v) => {
      toast.success(`Sample set "${v.name.trim()}" saved`);
      await refresh();
      setName("");
    },
    onSettled: (_r, e) => {
      if (e) toast.error("Could not save the sample set", { description: e instanceof Error ? e.message : String(e) });
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => templateMutations.deleteSample(project, templateId, id),
    onSuccess: async () => {
      setSelected("");
      await refresh();
    },
  });
  return (
    <div className="flex flex-wrap items-end gap-2">
      <div className="space-y-1">
        <label htmlFor="sample-set" className="text-sm font-medium">Sample data</label>
        <select
          id="sample-set"
          value={selected}
          onChange={(e) => {
            setSelected(e.target.value);
            const s = samples.find((x) => x.id === e.target.value);
            if (s) onLoad(s.data);
          }}
          className="flex h-9 min-w-48 rounded-md border bg-background px-2 text-sm"
        >
          <option value="">{samples.length ? "Choose a saved set…" : "No saved sets yet"}</option>
          {samples.map((s) => (
            <option key={s.id} value={s.id}>{s.name}</option>
          ))}
        </select>
      </div>
      {canWrite && selected && (
        <Button variant="ghost" size="icon" aria-label="Delete this sample set" onClick={() => remove.mutate(selected)}>
          <Trash2Icon aria-hidden="true" />
        </Button>
      )}
      {canWrite && (
        <form
          className="flex items-end gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            if (name.trim()) save.mutate({ name });
          }}
        >
          <div className="space-y-1">
            <label htmlFor="sample-name" className="text-sm font-medium">Save current data as</label>
            <Input id="sample-name" name="name" placeholder="long name" value={name} onChange={(e) => setName(e.target.value)} />
          </div>
          <Button type="submit" variant="outline" disabled={!name.trim()} pending={save.isPending}>
            <SaveIcon aria-hidden="true" />
            Save
          </Button>
        </form>
      )}
    </div>
  );
}
