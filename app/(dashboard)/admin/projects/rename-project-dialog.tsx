"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { toast } from "@/components/ui/toast";
import { updateProjectRequest, type ProjectView, type UpdateProjectRequest } from "@/lib/schemas/projects";
import { projectKeys, projectMutations } from "@/lib/queries/projects";
import { Input } from "@/components/ui/input";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { useFormMutation } from "@/components/hooks/use-form-mutation";
import { FormDialogFooter } from "@/components/common/form-dialog-footer";

export function RenameProjectDialog({ project, open, onOpenChange }: { project: ProjectView; open: boolean; onOpenChange: (open: boolean) => void }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const form = useForm<UpdateProjectRequest>({ resolver: zodResolver(updateProjectRequest), defaultValues: { name: project.name }, mode: "onTouched" });

  React.useEffect(() => {
    if (open) form.reset({ name: project.name });
  }, [open, project.name, form]);

  const { mutation, formError, reset } = useFormMutation(form, ["name"], {
    mutationFn: (values: UpdateProjectRequest) => projectMutations.rename(project.id, values),
    onSuccess: async (_d, values) => {
      toast.success("Project renamed", { description: `Now called ${values.name.trim()}.` });
      onOpenChange(false);
      await queryClient.invalidateQueries({ queryKey: projectKeys.all });
      router.refresh();
    },
  });

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        if (mutation.isPending) return;
        if (!o) reset();
        onOpenChange(o);
      }}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Rename “{project.name}”</DialogTitle>
          <DialogDescription>
            Only the display name changes; the service project id <span className="font-mono">{project.externalId}</span> and its links stay the same.
          </DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form noValidate onSubmit={form.handleSubmit((v) => mutation.mutate(v))} className="grid gap-4">
            <FormField
              control={form.control}
              name="name"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>Display name</FormLabel>
                  <FormControl>
                    <Input autoComplete="off" {...field} />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <FormDialogFooter error={formError} pending={mutation.isPending} submitLabel="Save name" onCancel={() => onOpenChange(false)} />
          </form>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
