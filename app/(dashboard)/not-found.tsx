import Link from "next/link";
import { FileQuestionIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { StatusPage } from "@/components/common/status-page";

/** A missing record or screen inside the dashboard keeps the shell around it. */
export default function DashboardNotFound() {
  return (
    <StatusPage
      inShell
      icon={FileQuestionIcon}
      code="404"
      title="Not found"
      description="It may have been removed, belong to another project, or the link is mistyped. Use the sidebar or Ctrl K to find what you need."
    >
      <Button asChild variant="outline">
        <Link href="/">Go to the dashboard</Link>
      </Button>
    </StatusPage>
  );
}
