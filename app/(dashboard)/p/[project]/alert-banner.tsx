"use client";

import * as React from "react";
import { useQuery } from "@tanstack/react-query";
import type { ActiveAlertsView } from "@/lib/schemas/alerts";
import { activeAlertsQuery } from "@/lib/queries/insight";

const AlertBannerList = React.lazy(() => import("./alert-banner-list").then((m) => ({ default: m.AlertBannerList })));

const same = (a: ActiveAlertsView | undefined, b: ActiveAlertsView | undefined) => a === b || JSON.stringify(a) === JSON.stringify(b);

/**
 * On every screen of a project while a rate is above a threshold (lib/server/alerts). It stays
 * across screens (the layout is not re-rendered on navigation) and asks again every minute.
 * The page's alerts come drawn by the server (`shown`, ./alert-banner-list.tsx rendered in the
 * layout), so a screen's first load carries no code for them; the words and icons load in the
 * browser only once the alerts differ from the page's.
 */
export function AlertBanner({ project, initial, shown }: { project: string; initial?: ActiveAlertsView; shown: React.ReactNode }) {
  const { data } = useQuery({ ...activeAlertsQuery(project), initialData: initial });
  if (same(data, initial)) return shown;
  const active = data?.active ?? [];
  if (active.length === 0) return null;
  return (
    <React.Suspense fallback={shown}>
      <AlertBannerList project={project} active={active} />
    </React.Suspense>
  );
}
