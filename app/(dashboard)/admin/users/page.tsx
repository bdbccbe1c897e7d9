import type { Metadata } from "next";
import { guardPage } from "@/lib/server/gate/guard";
import { listUsers } from "@/lib/server/users";
import { listAllProjects } from "@/lib/server/projects";
import { UsersScreen } from "./users-screen";

export const metadata: Metadata = { title: "Users" };

export default async function UsersPage() {
  const { user } = await guardPage("users:manage");
  const [users, projects] = await Promise.all([listUsers(), listAllProjects()]);
  return (
    <UsersScreen
      initialUsers={users}
      projects={projects.map((p) => ({ id: p.id, externalId: p.externalId, name: p.name }))}
      currentUserId={user.id}
    />
  );
}
