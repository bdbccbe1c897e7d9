import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { guardPage } from "@/lib/server/gate/guard";
import { checkDomainDetail, getDomainDetail, type DomainCheck } from "@/lib/server/domains/manage";
import { decodeParam } from "@/lib/http/decode-param";
import { firstLoad, optionalPart } from "@/components/common/first-load";
import { DomainScreen } from "./domain-screen";

export const metadata: Metadata = { title: "Domain" };

export default async function DomainPage({ params }: { params: Promise<{ project: string; id: string }> }) {
  const { project } = await guardPage("domains:read", params);
  const { id: rawId } = await params;
  const id = decodeParam(rawId);
  const initial = await firstLoad(getDomainDetail(project, id));
  if (initial.error?.status === 404) notFound();
  // The first live DNS check streams in after the page (DNS answers can be slow); the screen asks for it
  // again, with the answer's parser, only on a re-check. null: it failed, the screen runs it and shows why.
  const initialCheck: Promise<DomainCheck | null> | undefined = initial.data ? optionalPart(checkDomainDetail(initial.data)) : undefined;
  return <DomainScreen project={project.externalId} id={id} initial={initial} initialCheck={initialCheck} />;
}
