import type { Metadata } from "next";
import { guardPage } from "@/lib/server/gate/guard";
import { listDomains } from "@/lib/server/domains/manage";
import { domainStatus } from "@/lib/schemas/domains";
import { firstLoad } from "@/components/common/first-load";
import { DomainsScreen } from "./domains-screen";

export const metadata: Metadata = { title: "Domains" };

export default async function DomainsPage({ params, searchParams }: { params: Promise<{ project: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { project } = await guardPage("domains:read", params);
  const sp = await searchParams;
  const status = domainStatus.safeParse(sp.status).data ?? null;
  const cursor = typeof sp.cursor === "string" ? sp.cursor : null;
  const initial = await firstLoad(listDomains(project, { status: status ?? undefined, cursor: cursor ?? undefined }));
  return <DomainsScreen project={project.externalId} initial={initial} />;
}
