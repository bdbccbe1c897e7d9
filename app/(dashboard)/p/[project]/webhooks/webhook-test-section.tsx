"use client";

import * as React from "react";
import dynamic from "next/dynamic";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";

/** The form (react-hook-form, zod) is loaded only when opened: the screen's first load stays small. */
const WebhookTestForm = dynamic(() => import("./webhook-test-form"), { ssr: false, loading: () => <Skeleton className="h-48" /> });

/**
 * "Test an endpoint" (issue 29): a sample event in the interface's delivery shape, sent to a
 * customer's URL, optionally signed with a secret pasted here. Admins only (webhooks:write).
 */
export function WebhookTestSection({ project }: { project: string }) {
  const [open, setOpen] = React.useState(false);
  return (
    <section aria-labelledby="webhook-test-title" className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="webhook-test-title" className="text-base font-semibold">
          Test an endpoint
        </h2>
        <Button variant="outline" size="sm" onClick={() => setOpen(!open)} aria-expanded={open} aria-controls="webhook-test-panel">
          {open ? "Close" : "Test an endpoint"}
        </Button>
      </div>
      <p className="text-sm text-muted-foreground">
        Sends one sample event, shaped as the service delivers them, to a URL of yours, and shows the answer. Public addresses only, as for every URL the dashboard
        fetches for someone.
      </p>
      <div id="webhook-test-panel">{open && <WebhookTestForm project={project} />}</div>
    </section>
  );
}
