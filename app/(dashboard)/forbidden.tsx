import { ShellStatusPage } from "@/components/shell/shell-status-page";

/** Refused by the guard: say why in general terms, keep the shell for going elsewhere. */
export default function DashboardForbidden() {
  return <ShellStatusPage code="403" />;
}
