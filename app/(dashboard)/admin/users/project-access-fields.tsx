"use client";

import type { Control } from "react-hook-form";
import { Checkbox } from "@/components/ui/checkbox";
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";
import { FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";

export type ProjectOption = { id: string; externalId: string; name: string };
export type ProjectAccessValues = { allProjects: boolean; projectIds: string[] };

/**
 * "All projects" or a chosen set, for the create-user and project-access dialogs. All
 * projects includes account-wide rights (users, projects, audit log, account-wide keys) for
 * an admin; a chosen set never does.
 */
export function ProjectAccessFields({ control, projects, allProjects, idPrefix }: { control: Control<ProjectAccessValues>; projects: ProjectOption[]; allProjects: boolean; idPrefix: string }) {
  return (
    <>
      <FormField
        control={control}
        name="allProjects"
        render={({ field }) => (
          <FormItem className="flex items-center justify-between gap-4 rounded-md border p-3">
            <div className="space-y-1">
              <FormLabel>All projects</FormLabel>
              <FormDescription>Including projects registered later. Admins need it to manage users, projects, the audit log and account-wide keys.</FormDescription>
            </div>
            <FormControl>
              <Switch checked={field.value} onCheckedChange={field.onChange} />
            </FormControl>
          </FormItem>
        )}
      />
      {!allProjects && (
        <FormField
          control={control}
          name="projectIds"
          render={({ field }) => {
            const selected = new Set(field.value ?? []);
            return (
              <FormItem>
                <fieldset className="grid gap-2">
                  <legend className="mb-2 text-sm font-medium">Only these projects</legend>
                  {projects.length === 0 && <p className="text-sm text-muted-foreground">No project is registered yet.</p>}
                  {projects.length > 0 && (
                    <div className="max-h-48 space-y-1 overflow-y-auto rounded-md border p-2">
                      {projects.map((p) => {
                        const id = `${idPrefix}-project-${p.id}`;
                        return (
                          <div key={p.id} className="flex items-center gap-2 rounded-sm px-1 py-1 hover:bg-muted/60">
                            <Checkbox
                              id={id}
                              checked={selected.has(p.id)}
                              onCheckedChange={(checked) => {
                                const next = new Set(selected);
                                if (checked === true) next.add(p.id);
                                else next.delete(p.id);
                                field.onChange([...next]);
                              }}
                            />
                            <Label htmlFor={id} className="flex-1 font-normal">
                              {p.name} <span className="font-mono text-xs text-muted-foreground">{p.externalId}</span>
                            </Label>
                          </div>
                        );
                      })}
                    </div>
                  )}
                </fieldset>
                <FormDescription>{selected.size === 0 ? "With none selected, this person can sign in but open no project." : `${selected.size} selected.`}</FormDescription>
                <FormMessage />
              </FormItem>
            );
          }}
        />
      )}
    </>
  );
}
