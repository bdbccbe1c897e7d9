"use client";

import * as React from "react";
import { DownloadIcon, XIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { LazyMenu } from "@/components/shell/lazy-menu";
import { toast } from "@/components/ui/toast";

const loadMenu = () => import("./export-format-menu");
const ExportFormatMenu = React.lazy(() => loadMenu().then((m) => ({ default: m.ExportFormatMenu })));

type Running = { rows: number; abort: AbortController };

/**
 * "Export" on a list screen: the whole current search (every page, not the rows shown) as CSV
 * or NDJSON, from `path` (the screen's export route) with `query` (its filters). While it
 * runs the button shows the rows written so far and becomes Cancel, which aborts the request
 * (the server then stops reading). The menu's and the download's code load on first use.
 */
export function ExportMenu({ path, query = {} }: { path: string; query?: Record<string, string | null | undefined> }) {
  const [running, setRunning] = React.useState<Running | null>(null);

  const start = async (format: "csv" | "ndjson") => {
    const abort = new AbortController();
    setRunning({ rows: 0, abort });
    const params = new URLSearchParams({ format });
    for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
    try {
      const { runExport } = await import("./run-export");
      const { rows, fileName, stopped } = await runExport(`${path}?${params}`, { signal: abort.signal, onRows: (rows) => setRunning((r) => (r ? { ...r, rows } : r)) });
      const written = `${fileName}: ${rows.toLocaleString()} ${rows === 1 ? "row" : "rows"}.`;
      // A file cut at a limit is downloaded, but not announced as the whole search.
      if (stopped) toast.error("The export stopped at a limit", { description: `${written} ${stopped}` });
      else toast.success("Export ready", { description: written });
    } catch (e) {
      if (abort.signal.aborted) toast.success("Export cancelled");
      else toast.error("The export failed", { description: e instanceof Error ? e.message : String(e) });
    } finally {
      setRunning(null);
    }
  };

  if (running) {
    return (
      <div className="flex items-center gap-2" role="status" aria-live="polite">
        <span className="text-sm text-muted-foreground tabular-nums">Exporting… {running.rows.toLocaleString()} rows</span>
        <Button variant="outline" onClick={() => running.abort.abort()}>
          <XIcon aria-hidden="true" />
          Cancel export
        </Button>
      </div>
    );
  }
  const trigger = (
    <Button variant="outline" aria-haspopup="menu">
      <DownloadIcon aria-hidden="true" />
      Export
    </Button>
  );
  // The menu's code (radix) loads when the user reaches for it, not with the screen.
  return (
    <LazyMenu load={loadMenu} trigger={trigger} opensOn="pointerdown">
      {(menu) => <ExportFormatMenu {...menu} onPick={(format) => void start(format)} />}
    </LazyMenu>
  );
}
