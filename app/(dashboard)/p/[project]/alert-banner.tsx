"use client";

import * as React from "react";
import { useQuery } from "@tanstack/react-query";
import type { ActiveAlertsView } from "@/lib/schemas/alerts";
import { activeAlertsQuery } from "@/lib/queries/insight";

const AlertBannerList = React.lazy(() => import("./alert-banner-list").then((m) => ({ default: m.AlertBannerList })));

/**
 * On every screen of a project while a rate is above a threshold (lib/server/alerts). It stays
 * across screens (the layout is not re-rendered on navigation) and asks again every minute.
 * The words and icons of an alert load only while there is one, not with every screen.
 */
export function AlertBanner({ project, initial }: { project: string; initial?: ActiveAlertsView }) {
  const { data } = useQuery({ ...activeAlertsQuery(project), initialData: initial });
  const active = data?.active ?? [];
  if (active.length === 0) return null;
  return (
    <React.Suspense fallback={null}>
      <AlertBannerList project={project} active={active} />
    </React.Suspense>
  );
}
