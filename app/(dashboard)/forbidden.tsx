import Link from "next/link";
import { ShieldXIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { StatusPage } from "@/components/common/status-page";

/** Refused by the guard: say why in general terms, keep the shell for going elsewhere. */
export default function DashboardForbidden() {
  return (
    <StatusPage
      inShell
      icon={ShieldXIcon}
      code="403"
      title="You do not have access to this"
      description="Your role or your project access does not include this page. An administrator can change your role or grant you the project."
    >
      <Button asChild variant="outline">
        <Link href="/">Go to the dashboard</Link>
      </Button>
    </StatusPage>
  );
}
