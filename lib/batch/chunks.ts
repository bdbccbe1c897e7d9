import { MAX_BATCH_SIZE } from "@/lib/schemas/limits";

/**
 * A batch job sends its rows in chunks of at most 100 through `POST /v1/emails/batch`, each
 * chunk with an Idempotency-Key. The key is the whole guarantee against sending twice, so
 * how it is derived is the design:
 *
 * - **Same content, same key.** A chunk's key depends only on the job and the chunk's
 *   position. However the job is interrupted — the tab closed, the dashboard restarted
 *   mid-request, the service answering 5xx after it had in fact accepted the chunk — the
 *   resumed job re-sends that chunk with the key it used before, and the service replays
 *   the stored result instead of sending again. That is why no attempt counter, timestamp,
 *   random part or instance id may enter the key: a key that changes between attempts
 *   makes every retry a new send, which is exactly the duplicate this exists to prevent.
 *   It also requires the chunk's content to be fixed when the job is created (rows
 *   stored in the job, in file order), so chunk N is always the same rows.
 *
 * - **New content, new key.** "Retry failed rows" sends rows the first pass did not send
 *   (refused with an error, or failed). Re-using the original chunk key would only replay
 *   the original failures. Such a retry builds new chunks of just those rows, keyed by the
 *   job, the retry round ("retry-N") and the row numbers, so a retry that is itself
 *   interrupted resumes with the same keys, and a later round gets fresh ones.
 *
 * Keys are honoured for 24 hours per sending project (IDEMPOTENCY_TTL_HOURS): a job resumed
 * later than that is no longer protected, and the job runner should say so rather than resume.
 */

// A bounded job id keeps every key well inside the 255 characters the header accepts.
const JOB_ID = /^[A-Za-z0-9_-]{1,120}$/;

function checkJobId(jobId: string) {
  if (!JOB_ID.test(jobId)) throw new TypeError("jobId must be 1 to 120 letters, digits, _ or -");
}
function checkIndex(name: string, value: number) {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a whole number from 0`);
}

/** Items in order, in chunks of `size` (the service's batch limit by default); the last may be shorter. */
export function chunk<T>(items: readonly T[], size: number = MAX_BATCH_SIZE): T[][] {
  if (!Number.isSafeInteger(size) || size < 1) throw new RangeError("size must be a whole number from 1");
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

/** The Idempotency-Key of chunk `chunkIndex` (0-based) of a job's first pass. Deliberately no attempt number: see above. */
export function chunkIdempotencyKey(jobId: string, chunkIndex: number): string {
  checkJobId(jobId);
  checkIndex("chunkIndex", chunkIndex);
  return `batch-${jobId}-chunk-${chunkIndex}`;
}

/**
 * The Idempotency-Key of a retry chunk: the job, the retry round (1, 2, …) and the rows it
 * holds. The rows enter as a SHA-256 digest (order-independent) so a chunk of 100 row
 * numbers still fits the header. Async because Web Crypto is, which keeps the module
 * usable in the browser and on the server alike.
 */
export async function retryChunkIdempotencyKey(jobId: string, round: number, rowNumbers: readonly number[]): Promise<string> {
  checkJobId(jobId);
  if (!Number.isSafeInteger(round) || round < 1) throw new RangeError("round must be a whole number from 1");
  if (!rowNumbers.length) throw new RangeError("a retry chunk needs at least one row");
  for (const row of rowNumbers) checkIndex("row number", row);
  const rows = [...new Set(rowNumbers)].sort((a, b) => a - b).join(",");
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(rows));
  const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("").slice(0, 32);
  return `batch-${jobId}-retry-${round}-rows-${hex}`;
}
