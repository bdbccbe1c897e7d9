"use client";

import * as React from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { toast } from "sonner";
import { userProjectsRequest, type UserProjectsRequest, type UserView } from "@/lib/schemas/users";
import { userKeys, userMutations } from "@/lib/queries/users";
import { Checkbox } from "@/components/ui/checkbox";
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { describeError } from "@/components/common/error-advice";
import { FormDialogFooter } from "@/components/common/form-dialog-footer";

export type ProjectOption = { id: string; externalId: string; name: string };

/** Grants all projects (present and future) or a chosen set. Takes effect at the user's next request. */
export function UserProjectsDialog({ user, projects, open, onOpenChange }: { user: UserView; projects: ProjectOption[]; open: boolean; onOpenChange: (open: boolean) => void }) {
  const queryClient = useQueryClient();
  const form = useForm<UserProjectsRequest>({
    resolver: zodResolver(userProjectsRequest),
    defaultValues: { allProjects: user.allProjects, projectIds: user.projectIds },
  });
  React.useEffect(() => {
    if (open) form.reset({ allProjects: user.allProjects, projectIds: user.projectIds });
  }, [open, user.allProjects, user.projectIds, form]);

  const mutation = useMutation({
    mutationFn: (values: UserProjectsRequest) => userMutations.setProjects(user.id, { allProjects: values.allProjects, projectIds: values.allProjects ? [] : values.projectIds }),
    onSuccess: async (_d, values) => {
      const n = values.projectIds?.length ?? 0;
      toast.success("Project access saved", {
        description: values.allProjects ? `${user.email} can open every project.` : `${user.email} can open ${n} ${n === 1 ? "project" : "projects"}.`,
      });
      onOpenChange(false);
      await queryClient.invalidateQueries({ queryKey: userKeys.all });
    },
  });
  const all = form.watch("allProjects");
  const formError = mutation.error ? describeError(mutation.error) : null; // no field of this form is ever named

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        if (mutation.isPending) return;
        if (!o) mutation.reset();
        onOpenChange(o);
      }}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Project access for {user.name ?? user.email}</DialogTitle>
          <DialogDescription>Which projects this person can open. Their role still decides what they can do there.</DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form noValidate onSubmit={form.handleSubmit((v) => mutation.mutate(v))} className="grid gap-4">
            <FormField
              control={form.control}
              name="allProjects"
              render={({ field }) => (
                <FormItem className="flex items-center justify-between gap-4 rounded-md border p-3">
                  <div className="space-y-1">
                    <FormLabel>All projects</FormLabel>
                    <FormDescription>Including projects registered later.</FormDescription>
                  </div>
                  <FormControl>
                    <Switch checked={field.value} onCheckedChange={field.onChange} />
                  </FormControl>
                </FormItem>
              )}
            />
            {!all && (
              <FormField
                control={form.control}
                name="projectIds"
                render={({ field }) => {
                  const selected = new Set(field.value ?? []);
                  return (
                    <FormItem>
                      <fieldset className="grid gap-2">
                        <legend className="mb-2 text-sm font-medium">Only these projects</legend>
                        {projects.length === 0 && <p className="text-sm text-muted-foreground">No project is registered yet.</p>}
                        <div className="max-h-64 space-y-1 overflow-y-auto rounded-md border p-2">
                          {projects.map((p) => {
                            const id = `project-${p.id}`;
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
                      </fieldset>
                      <FormDescription>{selected.size === 0 ? "With none selected, this person can sign in but open no project." : `${selected.size} selected.`}</FormDescription>
                      <FormMessage />
                    </FormItem>
                  );
                }}
              />
            )}
            <FormDialogFooter error={formError} pending={mutation.isPending} submitLabel="Save access" onCancel={() => onOpenChange(false)} />
          </form>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
