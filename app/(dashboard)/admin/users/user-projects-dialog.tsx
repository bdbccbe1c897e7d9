"use client";

import * as React from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useForm, type Control } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { toast } from "sonner";
import { userProjectsRequest, type UserProjectsRequest, type UserView } from "@/lib/schemas/users";
import { userKeys, userMutations } from "@/lib/queries/users";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Form } from "@/components/ui/form";
import { describeError } from "@/components/common/error-advice";
import { FormDialogFooter } from "@/components/common/form-dialog-footer";
import { ProjectAccessFields, type ProjectAccessValues, type ProjectOption } from "./project-access-fields";

export type { ProjectOption } from "./project-access-fields";

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
            <ProjectAccessFields control={form.control as unknown as Control<ProjectAccessValues>} projects={projects} allProjects={all} idPrefix={`access-${user.id}`} />
            <FormDialogFooter error={formError} pending={mutation.isPending} submitLabel="Save access" onCancel={() => onOpenChange(false)} />
          </form>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
