"use client";

import * as React from "react";
import dynamic from "next/dynamic";
import { CollapsibleSection } from "@/components/common/collapsible-section";
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
    <CollapsibleSection
      id="webhook-test"
      title="Test an endpoint"
      open={open}
      onToggle={() => setOpen(!open)}
      showLabel="Test an endpoint"
      hideLabel="Close"
      description={
        <>
          Sends one sample event, shaped as the service delivers them, to a URL of yours, and shows the answer. Public addresses only, as for every URL the dashboard
          fetches for someone.
        </>
      }
    >
      <WebhookTestForm project={project} />
    </CollapsibleSection>
  );
}
