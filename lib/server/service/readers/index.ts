/**
 * The dashboard's readers of the service's answers: the ONE place where "not shown" in the
 * interface is handled. Every wrapper in lib/server/service/* parses its answer with one of
 * these, so screens and server functions only ever see the dashboard's own types (Message,
 * Domain, Template… from lib/schemas) filled in consistently.
 *
 * Why not the schemas in lib/schemas? Those describe the wire as the bundled service speaks
 * it: service/ validates its requests and generates its OpenAPI document from them, and
 * browser code parses our own API with them. They stay strict. The readers accept what any
 * service following the interface may send (ids as numbers, address objects, events of any
 * shape, missing optional fields, any preview layout) and produce those same types.
 * Error answers are read in ../error-body.ts, success codes in ../client.ts.
 */
export { anyAnswer, idReader, listOf, pageReader } from "./common";
export { addressText, attachmentsReader, batchAnswerReader, eventsReader, messageReader, readStatus, sendAnswerReader, simulatedReader, type ReadEvent } from "./messages";
export { dnsRecordReader, domainReader, receivingReader } from "./domains";
export { previewReader, templateReader } from "./templates";
export { contactReader, createdKeyReader, suppressionReader, webhookReader } from "./resources";
