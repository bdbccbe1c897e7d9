"use client";

import * as React from "react";
import { AppError, isAppError } from "@/lib/errors";
import { whenOpened } from "@/components/common/lazy-dialog";

/** The password dialog (./reauth-dialog.tsx) loads when a write first asks for it. */
const ReauthDialog = whenOpened<{ open: boolean; onConfirmed: () => void; onCancel: () => void }>(
  () => import("./reauth-dialog").then((m) => m.ReauthDialog),
  (props) => props.open,
);

type Waiter = { resolve: () => void; reject: (e: unknown) => void };

/**
 * Runs a write that may answer 403 `reauth_required` (creating a key or a webhook): the
 * password is asked in a dialog, confirmed with POST /api/auth/reconfirm, and the write
 * runs again with the same input. Cancelling rejects with an error saying nothing was made.
 */
export function useReauth() {
  const [waiter, setWaiter] = React.useState<Waiter | null>(null);

  const guarded = React.useCallback(async <T,>(write: () => Promise<T>): Promise<T> => {
    try {
      return await write();
    } catch (e) {
      if (!isAppError(e) || e.code !== "reauth_required") throw e;
      await new Promise<void>((resolve, reject) => setWaiter({ resolve, reject }));
      return write();
    }
  }, []);

  const dialog = (
    <ReauthDialog
      open={waiter !== null}
      onConfirmed={() => {
        waiter?.resolve();
        setWaiter(null);
      }}
      onCancel={() => {
        waiter?.reject(new AppError(403, "reauth_cancelled", "Your password was not confirmed, so nothing was created."));
        setWaiter(null);
      }}
    />
  );
  return { guarded, dialog };
}
