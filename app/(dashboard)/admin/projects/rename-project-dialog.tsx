"use client";

import { useRouter } from "next/navigation";
import { useQueryClient } from "@tanstack/react-query";
import { zodResolver } from "@hookform/resolvers/zod";
import { useReopenedForm } from "@/components/hooks/use-reopened-form";
import { toast } from "@/components/ui/toast";
import { updateProjectRequest, type ProjectView, type UpdateProjectRequest } from "@/lib/schemas/projects";
import { projectKeys, projectMutations } from "@/lib/queries/projects";
import { TextField } from "@/components/common/text-field";
import { FormDialog, useFormDialogMutation } from "@/components/common/form-dialog";

export function RenameProjectDialog({ project, open, onOpenChange }: { project: ProjectView; open: boolean; onOpenChange: (open: boolean) => void }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const form = useReopenedForm<UpdateProjectRequest>(open, { resolver: zodResolver(updateProjectRequest), defaultValues: { name: project.name }, mode: "onTouched" });

  const { dialog } = useFormDialogMutation(form, ["name"], {
    mutationFn: (values: UpdateProjectRequest) => projectMutations.rename(project.id, values),
    onSuccess: async (_d, values) => {
      toast.success("Project renamed", { description: `Now called ${values.name.trim()}.` });
      onOpenChange(false);
      await queryClient.invalidateQueries({ queryKey: projectKeys.all });
      router.refresh();
    },
  });

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={<>Rename “{project.name}”</>}
      description={
        <>
          Only the display name changes; the service project id <span className="font-mono">{project.externalId}</span> and its links stay the same.
        </>
      }
      {...dialog}
      submitLabel="Save name"
    >
      <TextField control={form.control} name="name" label="Display name" />
    </FormDialog>
  );
}
