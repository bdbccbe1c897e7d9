/**
 * The shared schemas phrase errors to follow a field name ("is required", "must be at most
 * 100 characters") so the server can say "name: is required". Under a labelled field the
 * label already names it, so the message is turned into a sentence of its own.
 */
export function fieldMessageText(message: string): string {
  const text = message.trim();
  if (!text) return text;
  if (/^(is|are|must|may|should|cannot|can't|has|have|does)\b/.test(text)) return `This field ${text}${/[.!?]$/.test(text) ? "" : "."}`;
  return text[0].toUpperCase() + text.slice(1);
}
