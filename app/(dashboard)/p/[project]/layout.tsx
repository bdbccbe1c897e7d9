import { guardPage } from "@/lib/server/guard";
import { decodeParam } from "@/components/shell/nav";

/**
 * Every screen under /p/[project] belongs to a project the user may open: an unknown or
 * ungranted project is a 404 here, before any screen loads. Screens still guard their own
 * permission.
 */
export default async function ProjectLayout({ children, params }: { children: React.ReactNode; params: Promise<{ project: string }> }) {
  const { project } = await params;
  await guardPage("overview:read", decodeParam(project));
  return children;
}
