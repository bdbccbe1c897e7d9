import type { Metadata } from "next";
import { rangeFrom } from "@/lib/insight/ranges";
import { guardPage } from "@/lib/server/gate/guard";
import { getTagFigures } from "@/lib/server/alerts/tag-figures";
import { firstLoad } from "@/components/common/first-load";
import { TagsScreen } from "./tags-screen";

export const metadata: Metadata = { title: "Tags" };

export default async function TagsPage({ params, searchParams }: { params: Promise<{ project: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { project } = await guardPage("overview:read", params);
  const initial = await firstLoad(getTagFigures(project, rangeFrom((await searchParams).range)));
  return <TagsScreen project={project.externalId} initial={initial} />;
}
