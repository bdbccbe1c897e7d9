import { ShellStatusPage } from "@/components/shell/shell-status-page";

/** A missing record or screen inside the dashboard keeps the shell around it. */
export default function DashboardNotFound() {
  return (
    <ShellStatusPage
      code="404"
      wording={{
        title: "Not found",
        description: "It may have been removed, belong to another project, or the link is mistyped. Use the sidebar or Ctrl K to find what you need.",
      }}
    />
  );
}
