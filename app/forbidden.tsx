import { ShieldXStaticIcon } from "@/components/common/static-icons";
import { Button } from "@/components/ui/button";
import { StatusPage } from "@/components/common/status-page";

export default function Forbidden() {
  return (
    <StatusPage
      icon={ShieldXStaticIcon}
      code="403"
      title="You do not have access to this"
      description="Your role or your project access does not include this page. An administrator can change your role or grant you the project."
    >
      {/* A plain link: the router's link code would load with every signed-out page for this one. */}
      <Button asChild>
        <a href="/">Go to the dashboard</a>
      </Button>
    </StatusPage>
  );
}
