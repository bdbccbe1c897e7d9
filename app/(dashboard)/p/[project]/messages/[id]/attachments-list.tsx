import { DownloadIcon, PaperclipIcon } from "lucide-react";
import type { AttachmentView } from "@/lib/schemas/messages-index";
import { formatBytes } from "@/components/common/format-bytes";

/** Downloads go through the dashboard (`download` + the route's Content-Disposition), never inline. */
export function AttachmentsList({ attachments, error }: { attachments: AttachmentView[]; error: string | null }) {
  if (error) return <p className="text-sm text-muted-foreground">The attachments could not be listed: {error}</p>;
  if (attachments.length === 0) return <p className="text-sm text-muted-foreground">No attachments.</p>;
  return (
    <ul className="divide-y rounded-md border" aria-label="Attachments">
      {attachments.map((a) => (
        <li key={a.id} className="flex items-center gap-3 px-3 py-2 text-sm">
          <PaperclipIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          <span className="min-w-0 flex-1 truncate font-medium" title={a.filename}>
            {a.filename}
          </span>
          <span className="text-xs text-muted-foreground">{a.contentType}</span>
          <span className="w-20 text-right text-xs text-muted-foreground tabular-nums">{formatBytes(a.size)}</span>
          <a href={a.downloadPath} download={a.filename} className="inline-flex items-center gap-1 rounded-md px-2 py-1 text-sm underline-offset-4 hover:underline" aria-label={`Download ${a.filename}`}>
            <DownloadIcon className="size-4" aria-hidden="true" />
            Download
          </a>
        </li>
      ))}
    </ul>
  );
}
