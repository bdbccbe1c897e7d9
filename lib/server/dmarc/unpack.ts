import { Gunzip, Unzip, UnzipInflate, UnzipPassThrough, type UnzipFile } from "fflate";
import { DMARC_LIMITS, type DmarcLimits } from "./limits";
import { refuse } from "./refusal";

/**
 * An attachment's bytes → the report's XML text. The format is told by the bytes themselves
 * (gzip and zip magic numbers, else XML), not by a name or type a sender chose. Decompression
 * is streamed in small slices and the output counted as it is produced, so a bomb is stopped
 * after at most one slice's worth of output past the limit, never inflated whole; every
 * YIELD_BYTES of output the event loop gets a turn, so a large report never holds up requests.
 */
const SLICE = 1024;
const YIELD_BYTES = 512 * 1024;

/** Pushes the input a slice at a time, yielding to the event loop as output accumulates. */
async function feed(bytes: Uint8Array, push: (chunk: Uint8Array, final: boolean) => void, produced: () => number, setPushed: (n: number) => void) {
  let nextYield = YIELD_BYTES;
  for (let i = 0; i < bytes.length; i += SLICE) {
    setPushed(Math.min(bytes.length, i + SLICE));
    push(bytes.subarray(i, i + SLICE), i + SLICE >= bytes.length);
    if (produced() >= nextYield) {
      nextYield = produced() + YIELD_BYTES;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

type Limits = Pick<DmarcLimits, "xmlBytes" | "ratio" | "ratioFloorBytes" | "zipEntries">;

export async function unpackReport(bytes: Uint8Array, limits: Limits = DMARC_LIMITS): Promise<string> {
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return decode(await gunzip(bytes, limits));
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) return decode(await unzip(bytes, limits));
  if (bytes.length > limits.xmlBytes) throw tooBig(limits);
  return decode(bytes);
}

const tooBig = (limits: Limits) =>
  refuse("report_too_large", `The report is larger than ${limits.xmlBytes} bytes once decompressed; it was not read.`);

/**
 * Collects output chunks under the byte and ratio limits; throws (stopping the inflate) past
 * either. The ratio is over the input consumed so far, so a bomb is seen at its first megabyte.
 */
function collector(consumed: () => number, limits: Limits) {
  const chunks: Uint8Array[] = [];
  let total = 0;
  return {
    add(chunk: Uint8Array) {
      total += chunk.length;
      if (total > limits.xmlBytes) throw tooBig(limits);
      if (total > limits.ratioFloorBytes && total / Math.max(1, consumed()) > limits.ratio) {
        throw refuse("report_ratio", `The report decompresses more than ${limits.ratio} times its size; it was not read.`);
      }
      chunks.push(chunk);
    },
    total: () => total,
    bytes: (): Uint8Array => Buffer.concat(chunks, total),
  };
}

/**
 * Feeds the attachment to the decompressor `start` builds around the collector; `end` is
 * called when the decompressor has produced its last chunk. Damaged input, or input that stops
 * before that, is refused with the words given.
 */
async function inflate(
  bytes: Uint8Array,
  limits: Limits,
  start: (out: ReturnType<typeof collector>, end: () => void) => { push(chunk: Uint8Array, final: boolean): void },
  words: { damaged: string; early: string },
): Promise<Uint8Array> {
  let pushed = 0;
  const out = collector(() => pushed, limits);
  let ended = false;
  const stream = start(out, () => (ended = true));
  try {
    await feed(bytes, (chunk, final) => stream.push(chunk, final), out.total, (n) => (pushed = n));
  } catch (e) {
    throw asRefusal(e, words.damaged);
  }
  if (!ended) throw refuse("report_damaged", words.early);
  return out.bytes();
}

function gunzip(bytes: Uint8Array, limits: Limits): Promise<Uint8Array> {
  return inflate(
    bytes,
    limits,
    (out, end) =>
      new Gunzip((chunk, final) => {
        out.add(chunk);
        if (final) end();
      }),
    { damaged: "The gzip attachment is damaged; it was not read.", early: "The gzip attachment ends early; it was not read." },
  );
}

function unzip(bytes: Uint8Array, limits: Limits): Promise<Uint8Array> {
  let entries = 0;
  return inflate(
    bytes,
    limits,
    (out, end) => {
      const stream = new Unzip((file: UnzipFile) => {
        entries += 1;
        if (entries > limits.zipEntries) {
          throw refuse("report_zip_entries", `The zip holds more than ${limits.zipEntries} file; a report is one .xml file.`);
        }
        if (!/\.xml$/i.test(file.name)) throw refuse("report_zip_entry", "The zip's file is not an .xml file; it was not read.");
        file.ondata = (err, chunk, final) => {
          if (err) throw err;
          out.add(chunk);
          if (final) end();
        };
        file.start();
      });
      stream.register(UnzipInflate);
      stream.register(UnzipPassThrough);
      return stream;
    },
    { damaged: "The zip attachment is damaged; it was not read.", early: "The zip attachment holds no complete .xml file; it was not read." },
  );
}

function asRefusal(e: unknown, message: string) {
  return e instanceof Error && "status" in e ? e : refuse("report_damaged", message);
}

function decode(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw refuse("report_encoding", "The report is not UTF-8 text; it was not read.");
  }
}
