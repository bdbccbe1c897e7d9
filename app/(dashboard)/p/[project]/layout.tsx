import { headers } from "next/headers";
import { guardPage, PATHNAME_HEADER } from "@/lib/server/gate/guard";
import { activeAlerts } from "@/lib/server/alerts/view";
import { screenPermission } from "@/lib/nav";
import { AlertBanner } from "./alert-banner";
import { AlertBannerList } from "./alert-banner-list";

/**
 * Every screen under /p/[project] belongs to a project the user may open (404 otherwise), and
 * a screen the role may not use is refused here with HTTP 403 — before loading.tsx starts
 * streaming, after which the status could no longer change. Screens still guard their own
 * permission, since a layout is not re-run when moving between screens of one project (the
 * alert banner therefore keeps itself current).
 */
export default async function ProjectLayout({ children, params }: { children: React.ReactNode; params: Promise<{ project: string }> }) {
  const path = (await headers()).get(PATHNAME_HEADER) ?? "";
  const { project: current } = await guardPage(screenPermission(path) ?? "overview:read", params);
  // Alerts raised now (lib/server/alerts): a banner on every screen of the project.
  const alerts = await activeAlerts(current).catch(() => undefined);
  return (
    <>
      <AlertBanner
        project={current.externalId}
        initial={alerts}
        shown={alerts?.active.length ? <AlertBannerList project={current.externalId} active={alerts.active} /> : null}
      />
      {children}
    </>
  );
}
