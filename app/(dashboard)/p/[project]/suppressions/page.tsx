import type { Metadata } from "next";
import { guardPage } from "@/lib/server/guard";
import { listSuppressions } from "@/lib/server/suppressions";
import { decodeParam } from "@/components/shell/nav";
import { SuppressionsScreen } from "./suppressions-screen";

export const metadata: Metadata = { title: "Suppressions" };

export default async function SuppressionsPage({ params, searchParams }: { params: Promise<{ project: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const [{ project: raw }, sp] = await Promise.all([params, searchParams]);
  const { project } = await guardPage("suppressions:read", decodeParam(raw));
  const cursor = typeof sp.cursor === "string" ? sp.cursor : undefined;
  const initial = await listSuppressions(project!, { cursor }).catch(() => undefined);
  return <SuppressionsScreen project={project!.externalId} initial={initial} />;
}
