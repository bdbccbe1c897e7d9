/** The wire's string patterns, without zod, live with the interface's words (contract/wire/words.ts). */
export { EMAIL_PATTERN, NO_NUL } from "@/contract/wire/words";
