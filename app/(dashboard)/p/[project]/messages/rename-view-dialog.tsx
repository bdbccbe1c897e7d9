"use client";

import { useQueryClient } from "@tanstack/react-query";
import { zodResolver } from "@hookform/resolvers/zod";
import { useReopenedForm } from "@/components/hooks/use-reopened-form";
import { z } from "zod";
import { toast } from "@/components/ui/toast";
import { createSavedViewRequest, type SavedView } from "@/lib/schemas/saved-views";
import { savedViewKeys, savedViewMutations } from "@/lib/queries/saved-views";
import { TextField } from "@/components/common/text-field";
import { FormDialog, useFormDialogMutation } from "@/components/common/form-dialog";

const renameViewForm = createSavedViewRequest.pick({ name: true });
type RenameViewValues = z.input<typeof renameViewForm>;

export function RenameViewDialog({ project, view, open, onOpenChange }: { project: string; view: SavedView; open: boolean; onOpenChange: (open: boolean) => void }) {
  const queryClient = useQueryClient();
  const form = useReopenedForm<RenameViewValues>(open, { resolver: zodResolver(renameViewForm), defaultValues: { name: view.name }, mode: "onTouched" });

  const { dialog } = useFormDialogMutation(form, ["name"], {
    mutationFn: (values: RenameViewValues) => savedViewMutations.update(project, view.id, { name: values.name }),
    onSuccess: async (renamed) => {
      toast.success("View renamed", { description: `Now called “${renamed.name}”.` });
      onOpenChange(false);
      await queryClient.invalidateQueries({ queryKey: savedViewKeys.all(project) });
    },
  });

  return (
    <FormDialog open={open} onOpenChange={onOpenChange} title={<>Rename view “{view.name}”</>} description="Only the name changes; the search it keeps stays the same." {...dialog} submitLabel="Save name">
      <TextField control={form.control} name="name" label="Name" />
    </FormDialog>
  );
}
