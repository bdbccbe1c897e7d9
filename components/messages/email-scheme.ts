/**
 * How the email preview is drawn: as a client in light mode, in dark mode with the email's own
 * dark styles, or with one of the two colour changes clients make to an email without them.
 * Kept apart from the frame (a chunk loaded later) so the switch and the screens can name the
 * schemes without loading it.
 */
export const EMAIL_SCHEMES = ["light", "dark", "inverted", "partial"] as const;
export type EmailScheme = (typeof EMAIL_SCHEMES)[number];

/**
 * The scheme a client would actually show: it inverts or recolours only an email without dark
 * styles of its own; one with them is shown with them (Gmail's apps are the exception, and
 * the preview says so next to the switch).
 */
export function effectiveScheme(requested: EmailScheme, darkStyles: boolean): EmailScheme {
  return darkStyles && (requested === "inverted" || requested === "partial") ? "dark" : requested;
}
