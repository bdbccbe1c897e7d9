import { AppError, appErrorFromResponse } from "@/lib/errors";
import { NETWORK_ERROR_MESSAGE } from "@/lib/api-client";
import { EXPORT_STOPPED_CSV, EXPORT_STOPPED_KEY } from "@/lib/schemas/words";

/**
 * The message of the line an export ends with when it stopped at a limit (lib/server/export/
 * format.ts encodeStop), or null: the file's last line, read from its last bytes only.
 */
export function stoppedMessage(chunks: readonly Uint8Array[]): string | null {
  const tail: Uint8Array[] = [];
  let size = 0;
  for (let i = chunks.length - 1; i >= 0 && size < 1024; i--) {
    tail.unshift(chunks[i]!);
    size += chunks[i]!.length;
  }
  const text = new TextDecoder().decode(concat(tail)).trimEnd();
  const last = text.slice(text.lastIndexOf("\n") + 1);
  if (last.startsWith(EXPORT_STOPPED_CSV)) return last.slice(2);
  if (last.startsWith(`{"${EXPORT_STOPPED_KEY}"`)) {
    try {
      return String((JSON.parse(last) as { message?: unknown }).message ?? "The export stopped at a limit.");
    } catch {
      return null;
    }
  }
  return null;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * Downloads one export (lib/server/export/) while counting its rows: the response is read as
 * a stream, each chunk kept for the file and its line breaks counted (every row ends with
 * one; a CSV cell holding a line break counts twice, which only makes the progress run
 * ahead a little). Aborting the signal stops the request, and so the server's reading.
 * Loaded on the first click of an Export menu, not with the screen.
 */
export async function runExport(url: string, { signal, onRows }: { signal: AbortSignal; onRows: (rows: number) => void }): Promise<{ rows: number; fileName: string; stopped: string | null }> {
  let res: Response;
  try {
    res = await fetch(url, { signal, credentials: "same-origin", cache: "no-store" });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === "AbortError") throw cause;
    throw new AppError(0, "network_error", NETWORK_ERROR_MESSAGE);
  }
  if (!res.ok || !res.body) throw await appErrorFromResponse(res);
  const csv = (res.headers.get("content-type") ?? "").includes("text/csv");
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let lines = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    for (let i = 0; i < value.length; i++) if (value[i] === 10) lines++;
    // The CSV header is a line, not a row.
    onRows(Math.max(0, lines - (csv ? 1 : 0)));
  }
  const stopped = stoppedMessage(chunks);
  // A limit's closing line is not a row.
  const rows = Math.max(0, lines - (csv ? 1 : 0) - (stopped ? 1 : 0));
  const fileName = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? "export";
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob(chunks, { type: res.headers.get("content-type") ?? "application/octet-stream" }));
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has handed the file to the browser's download.
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
  return { rows, fileName, stopped };
}
