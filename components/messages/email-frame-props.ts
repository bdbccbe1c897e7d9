import type { EmailScheme } from "./email-scheme";

/** The props of EmailFrame, in a file of their own: its lazily loaded chunk (sandboxed-frame.tsx) takes them too, without importing email-frame.tsx back. */
export type EmailFrameProps = {
  /** Untrusted HTML: an inbound email, a sent body, a template preview. */
  html: string;
  /** Remote images stay blocked until the viewer asks for them (tracking pixels, privacy). */
  allowRemoteImages?: boolean;
  /** CSS width: a number of pixels (e.g. 375 for a phone preview) or any CSS length. */
  width?: number | string;
  /** Accessible name of the frame, e.g. "Email preview: Your receipt". */
  title: string;
  height?: number;
  className?: string;
  /** Told how many remote images the frame blocks (for "Show remote images"), once it has read the html. */
  onRemoteImages?: (count: number) => void;
  /** Light, or dark as a client shows it (email-scheme.ts); light when not given. */
  scheme?: EmailScheme;
  /** Told whether the email has dark styles of its own (the approximations then do not apply), once it has read the html. */
  onDarkStyles?: (darkStyles: boolean) => void;
};
