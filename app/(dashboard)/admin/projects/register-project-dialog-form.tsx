"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { toast } from "@/components/ui/toast";
import { createProjectRequest, type CreateProjectRequest } from "@/lib/schemas/projects";
import { projectKeys, projectMutations } from "@/lib/queries/projects";
import { TextField } from "@/components/common/text-field";
import type { LazyDialogProps } from "@/components/common/lazy-dialog";
import { FormDialog, useFormDialogMutation } from "@/components/common/form-dialog";

/**
 * Registers a project by its id at the service. The server asks the service about the id
 * first; a refusal ("the service does not know this project") lands under the id field.
 */
export default function RegisterProjectDialogForm(lazy: LazyDialogProps) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const form = useForm<CreateProjectRequest>({ resolver: zodResolver(createProjectRequest), defaultValues: { externalId: "", name: undefined }, mode: "onTouched" });

  const { mutation, dialog } = useFormDialogMutation(form, ["externalId", "name"], {
    dialogProps: lazy,
    mutationFn: (values: CreateProjectRequest) => projectMutations.register({ externalId: values.externalId, name: values.name?.trim() || undefined }),
    onSuccess: async (_data, values) => {
      toast.success("Project registered", { description: `${values.name?.trim() || values.externalId} is ready to use.` });
      await queryClient.invalidateQueries({ queryKey: projectKeys.all });
      router.refresh(); // the project switcher lists it too
    },
  });

  return (
    <FormDialog
      {...dialog}
      title="Register a project"
      description="Enter the project's id at the email service. It is checked with the service before it is added."
      submitLabel={mutation.isPending ? "Checking with the service…" : "Register project"}
    >
      <TextField
        control={form.control}
        name="externalId"
        label="Service project id"
        spellCheck={false}
        className="font-mono"
        placeholder="acme-production"
        description="Sent as X-Service-Product on every call; it also appears in this project's links."
      />
      {/* Optional in the schema means absent, not empty: an empty box sends no name. */}
      <TextField control={form.control} name="name" label="Display name" optional placeholder="Acme (production)" description="Optional. Defaults to the id." />
    </FormDialog>
  );
}
