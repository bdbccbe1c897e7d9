"use client";

import * as React from "react";
import { MoreHorizontalIcon } from "lucide-react";
import type { UserView } from "@/lib/schemas/users";
import { LazyMenu } from "@/components/shell/lazy-menu";
import { Button } from "@/components/ui/button";
import type { ProjectOption } from "./project-access-fields";

/** The menu, its dialogs and their libraries (radix menu and dialog, react-hook-form, zod) load when the button is first used (./user-actions-menu.tsx). */
const load = () => import("./user-actions-menu");
const Menu = React.lazy(() => load().then((m) => ({ default: m.UserActionsMenu })));

export function UserActions(props: { user: UserView; projects: ProjectOption[]; isSelf: boolean }) {
  const trigger = (
    <Button variant="ghost" size="icon-sm" aria-label={`Actions for ${props.user.name ?? props.user.email}`} aria-haspopup="menu">
      <MoreHorizontalIcon aria-hidden="true" />
    </Button>
  );
  return (
    <LazyMenu load={load} trigger={trigger} opensOn="pointerdown">
      {(menu) => <Menu {...props} {...menu} />}
    </LazyMenu>
  );
}
