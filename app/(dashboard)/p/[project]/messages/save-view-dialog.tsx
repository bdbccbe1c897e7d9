"use client";

import { useRouter } from "next/navigation";
import { useQueryClient } from "@tanstack/react-query";
import { zodResolver } from "@hookform/resolvers/zod";
import { useReopenedForm } from "@/components/hooks/use-reopened-form";
import { z } from "zod";
import { toast } from "@/components/ui/toast";
import { createSavedViewRequest, type SavedViewState } from "@/lib/schemas/saved-views";
import { savedViewHref, savedViewKeys, savedViewMutations } from "@/lib/queries/saved-views";
import { TextField } from "@/components/common/text-field";
import { FormDialog, useFormDialogMutation } from "@/components/common/form-dialog";
import { FormControl, FormDescription, FormField, FormItem, FormLabel } from "@/components/ui/form";
import { Switch } from "@/components/ui/switch";

/** The dialog's fields: the request without its state, which is the URL's search. */
const saveViewForm = createSavedViewRequest.pick({ name: true, shared: true });
type SaveViewValues = z.input<typeof saveViewForm>;

/** "Save current search…": a name and whether the project sees it; the search is the one in the URL. */
export function SaveViewDialog({ project, state, open, onOpenChange }: { project: string; state: SavedViewState; open: boolean; onOpenChange: (open: boolean) => void }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const form = useReopenedForm<SaveViewValues>(open, { resolver: zodResolver(saveViewForm), defaultValues: { name: "", shared: false }, mode: "onTouched" });

  const { dialog } = useFormDialogMutation(form, ["name", "shared"], {
    mutationFn: (values: SaveViewValues) => savedViewMutations.create(project, { name: values.name, shared: values.shared ?? false, state }),
    onSuccess: async (view) => {
      toast.success("Search saved", { description: view.shared ? `“${view.name}” is shared with the project.` : `“${view.name}” is in your views.` });
      onOpenChange(false);
      await queryClient.invalidateQueries({ queryKey: savedViewKeys.all(project) });
      router.replace(savedViewHref(project, view.query), { scroll: false });
    },
  });

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Save current search"
      description="The search and filters now in the address are kept under a name — never the results, so opening it later shows what matches then."
      {...dialog}
      submitLabel="Save view"
    >
      <TextField control={form.control} name="name" label="Name" placeholder="e.g. Bounces this week" />
      <FormField
        control={form.control}
        name="shared"
        render={({ field }) => (
          <FormItem className="flex items-center justify-between gap-4 rounded-md border p-3">
            <div className="space-y-1">
              <FormLabel>Share with the project</FormLabel>
              <FormDescription>Everyone who can open this project's messages sees it. Only you (or an admin) can change it.</FormDescription>
            </div>
            <FormControl>
              <Switch checked={field.value ?? false} onCheckedChange={field.onChange} />
            </FormControl>
          </FormItem>
        )}
      />
    </FormDialog>
  );
}
