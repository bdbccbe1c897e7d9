import { FileQuestionStaticIcon } from "@/components/common/static-icons";
import { Button } from "@/components/ui/button";
import { StatusPage } from "@/components/common/status-page";

export default function NotFound() {
  return (
    <StatusPage
      icon={FileQuestionStaticIcon}
      code="404"
      title="This page does not exist"
      description="The link may be mistyped, or what it pointed to was removed. If someone sent you this link, check it with them."
    >
      {/* A plain link: the router's link code would load with every signed-out page for this one. */}
      <Button asChild>
        <a href="/">Go to the dashboard</a>
      </Button>
    </StatusPage>
  );
}
