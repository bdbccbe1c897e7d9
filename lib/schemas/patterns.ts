/**
 * The patterns of the shared schemas, without zod: client code that only tests a string
 * (is this an address?) imports them from here and so does not load the schema library.
 */

/**
 * Email addresses are checked with a pragmatic pattern rather than z.email():
 * Zod 4's built-in refuses one-letter top-level domains, which real mail allows.
 */
export const EMAIL_PATTERN = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]+$/;

/** No NUL character: Postgres refuses it in text, so it would come back as a 500 instead of a 400. */
export const NO_NUL = { pattern: /^[^\u0000]*$/, error: "must not contain a NUL character (\\u0000)" } as const;
