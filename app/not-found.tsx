import { StandaloneStatusPage } from "@/components/common/status-page";

export default function NotFound() {
  return <StandaloneStatusPage code="404" />;
}
