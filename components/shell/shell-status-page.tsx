import { Link } from "@/components/common/link";
import { Button } from "@/components/ui/button";
import { StatusPage, httpStatus, type HttpStatusCode } from "@/components/common/status-page";

/** A 403 or 404 inside the dashboard: the shell stays around it for going elsewhere. */
export function ShellStatusPage({ code, wording }: { code: HttpStatusCode; wording?: { title: string; description: string } }) {
  return (
    <StatusPage inShell {...httpStatus(code, wording)}>
      <Button asChild variant="outline">
        <Link href="/">Go to the dashboard</Link>
      </Button>
    </StatusPage>
  );
}
