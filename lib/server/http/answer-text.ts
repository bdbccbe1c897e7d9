import "server-only";

/**
 * The text of a JSON answer route() built (lib/server/gate/route.ts), kept beside its Response,
 * so a door that writes the answer on Node's socket itself (node-answer.ts) takes the text it
 * already has instead of reading it back through the Response's web stream, which cost the
 * message read about a tenth of a millisecond (`npm run bench:gateway`). Next reads the body
 * as ever; nothing else of the Response changes. On a Symbol.for key: Next bundles the door
 * (instrumentation.ts) and the routes separately.
 */
const TEXT = Symbol.for("mail-dashboard.answer-text");
type WithText = Response & { [TEXT]?: string };

/** `response`, whose body is exactly `text`, marked with it. */
export function withAnswerText(response: Response, text: string): Response {
  (response as WithText)[TEXT] = text;
  return response;
}

/** The body of `response` as its maker marked it, or undefined. */
export function answerTextOf(response: Response): string | undefined {
  return (response as WithText)[TEXT];
}
