"use client";

import { useQuery } from "@tanstack/react-query";
import { CloudOffIcon, FolderXIcon, KeyRoundIcon, SnailIcon, WifiOffIcon } from "lucide-react";
import { bannerHealthQuery } from "@/lib/queries/health";
import { isAppError } from "@/lib/errors";
import type { TakenHealth } from "@/lib/schemas/health";

/**
 * The one banner that says the email service is slow, unreachable, refuses the dashboard's
 * key or does not know a configured project — with the reason the server found, in the words
 * `npm start` printed. Screens keep working under it (the dashboard's own data does not depend
 * on the service); it clears by itself once the service answers again. It starts from the
 * server's answer (`initial`), so a page's first load does not ask again (lib/queries/health.ts).
 */
export function ServiceBanner({ initial }: { initial?: TakenHealth | null }) {
  const { data, error } = useQuery(bannerHealthQuery(initial));

  let content: { icon: typeof CloudOffIcon; text: string } | null = null;
  if (error && isAppError(error) && error.code === "network_error") {
    content = { icon: WifiOffIcon, text: "The dashboard server cannot be reached. Check your connection; this page retries by itself." };
  } else if (data?.problem === "key_refused" || data?.problem === "unknown_project") {
    content = {
      icon: data.problem === "key_refused" ? KeyRoundIcon : FolderXIcon,
      text: `${data.reason ?? "The email service refuses the dashboard's configuration."} An admin needs to fix the dashboard's settings; everything that does not need the service keeps working.`,
    };
  } else if (data?.state === "down") {
    content = {
      icon: CloudOffIcon,
      text: `${data.reason ?? "The email service is not answering."} Whatever reads from it or sends through it fails until it is back; everything else keeps working. Checking again every few seconds.`,
    };
  } else if (data?.state === "slow") {
    content = {
      icon: SnailIcon,
      text: `The email service is answering slowly${data.latencyMs ? ` (${(data.latencyMs / 1000).toFixed(1)} s)` : ""}. Screens may take longer to load.`,
    };
  }
  if (!content) return null;
  const Icon = content.icon;
  return (
    <div role="status" data-slot="service-banner" data-state={data?.state ?? "unreachable"} data-problem={data?.problem ?? undefined} className="flex items-center gap-2 border-b border-amber-300 bg-warning px-4 py-2 text-sm text-warning-foreground dark:border-amber-800">
      <Icon className="size-4 shrink-0" aria-hidden="true" />
      <p>{content.text}</p>
    </div>
  );
}
