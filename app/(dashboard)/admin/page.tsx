import { forbidden, redirect } from "next/navigation";
import { currentUser } from "@/lib/server/gate/guard";
import { visibleAdminScreens } from "@/components/shell/nav";

/** /admin opens the first admin screen the user may use (none for a user limited to some projects). */
export default async function AdminIndex() {
  const user = await currentUser();
  if (!user) redirect("/login?callbackUrl=%2Fadmin");
  const first = visibleAdminScreens(user)[0];
  if (!first) forbidden();
  redirect(first.href);
}
