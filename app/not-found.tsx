import Link from "next/link";
import { FileQuestionIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { StatusPage } from "@/components/common/status-page";

export default function NotFound() {
  return (
    <StatusPage
      icon={FileQuestionIcon}
      code="404"
      title="This page does not exist"
      description="The link may be mistyped, or what it pointed to was removed. If someone sent you this link, check it with them."
    >
      <Button asChild>
        <Link href="/">Go to the dashboard</Link>
      </Button>
    </StatusPage>
  );
}
