"use client";

import { useRouter } from "next/navigation";
import { useMutation } from "@tanstack/react-query";
import { RadioTowerIcon } from "lucide-react";
import { toast } from "@/components/ui/toast";
import { Button } from "@/components/ui/button";
import { messageMutations } from "@/lib/queries/messages";

/**
 * Shown while the project's events do not reach the index: the list then only holds what
 * the dashboard sent or looked up. Admins connect it; others are told whom to ask.
 */
export function EventStreamNotice({ project, canConnect }: { project: string; canConnect: boolean }) {
  const router = useRouter();
  const connect = useMutation({
    mutationFn: () => messageMutations.connectStream(project),
    onSuccess: () => {
      toast.success("Event stream connected", { description: "Delivery events and inbound mail now reach this list." });
      router.refresh();
    },
    onError: (e) => toast.error("Could not connect the event stream", { description: e instanceof Error ? e.message : undefined }),
  });
  return (
    <div role="status" className="flex flex-wrap items-center gap-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
      <RadioTowerIcon className="size-4 shrink-0" aria-hidden="true" />
      <p className="min-w-0 flex-1">
        This project&apos;s event stream is not connected: the dashboard reads statuses from the service itself, but inbound mail does not reach this list.
        {!canConnect && " Ask an admin to connect it."}
      </p>
      {canConnect && (
        <Button size="sm" onClick={() => connect.mutate()} pending={connect.isPending}>
          Connect event stream
        </Button>
      )}
    </div>
  );
}
