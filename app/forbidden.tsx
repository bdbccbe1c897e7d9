import { StandaloneStatusPage } from "@/components/common/status-page";

export default function Forbidden() {
  return <StandaloneStatusPage code="403" />;
}
