/**
 * htmlparser2's tokenizer on its own, for the browser. The package exports only its index,
 * which also re-exports the DOM handler, DomUtils and the serializer; the bundler kept them
 * all (a second copy of the entities tables and a Buffer polyfill: 58 KB gzipped in the
 * email frame's chunk instead of about 25). Its published file is imported directly instead.
 */
export { default as Tokenizer, QuoteType, type Callbacks as TokenizerCallbacks } from "../../node_modules/htmlparser2/dist/esm/Tokenizer.js";
