import type { Metadata } from "next";
import { guardPage } from "@/lib/server/gate/guard";
import { listAllProjects } from "@/lib/server/projects";
import { ProjectsScreen } from "./projects-screen";

export const metadata: Metadata = { title: "Projects" };

export default async function ProjectsPage() {
  await guardPage("projects:manage");
  const projects = await listAllProjects();
  return <ProjectsScreen initialProjects={projects} />;
}
