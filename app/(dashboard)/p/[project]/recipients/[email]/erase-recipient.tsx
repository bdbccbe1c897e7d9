"use client";

import { useRouter } from "next/navigation";
import { useMutation } from "@tanstack/react-query";
import { EraserIcon } from "lucide-react";
import { toast } from "@/components/ui/toast";
import { recipientMutations } from "@/lib/queries/recipients";
import { ConfirmDialog } from "@/components/common/confirm-dialog";
import { Button } from "@/components/ui/button";
import { useShell } from "@/components/shell/shell-context";

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/**
 * "Erase this recipient's data": one confirmed action for support and admins when a person
 * asks to be forgotten. Removes the address from the dashboard's own records only; the
 * dialog says plainly that the email service keeps its own data.
 */
export function EraseRecipient({ project, email }: { project: string; email: string }) {
  const { can } = useShell();
  const router = useRouter();
  const erasure = useMutation({
    mutationFn: () => recipientMutations.erase(project, email),
    onSuccess: (r) => {
      toast.success(`Erased ${email} from the dashboard`, {
        description: `${plural(r.messagesDeleted, "message")} removed, ${plural(r.messagesStripped, "message")} kept without the address, ${plural(r.redacted, "other record")} redacted, ${plural(r.contacts, "contact record")}, ${plural(r.batchRows, "batch row")}, ${plural(r.templateSamples, "sample set")}, ${plural(r.savedViews, "saved view")}.`,
      });
      router.refresh();
    },
  });
  if (!can("recipients:erase")) return null;

  return (
    <ConfirmDialog
      title={`Erase ${email} from the dashboard?`}
      confirmLabel="Erase this recipient's data"
      onConfirm={() => erasure.mutateAsync()}
      trigger={
        <Button variant="outline" size="sm">
          <EraserIcon aria-hidden="true" />
          Erase data
        </Button>
      }
      description={
        <div className="space-y-2">
          <p>
            The dashboard&apos;s own records of <span className="font-medium text-foreground">{email}</span> in this project are removed for good:
          </p>
          <ul className="list-disc space-y-1 pl-5">
            <li>messages sent to it (or received from it) that nobody else got, with their timelines;</li>
            <li>the address on messages that other people also received (those stay, without it), and wherever else it is written: subjects, bodies, event details, other batch rows and contacts;</li>
            <li>its contact record in the dashboard&apos;s contacts, its rows in batch jobs (a row not yet sent will not be sent) and sample sets that mention it.</li>
          </ul>
          <p>From then on the dashboard records mail to or from it in this project without the address.</p>
          <p>
            The email service keeps its own data (messages, contact, suppression): the dashboard has no way to delete it there. The audit log records this erasure without the address in clear.
          </p>
        </div>
      }
    />
  );
}
