"use client";

import * as React from "react";
import { EMAIL_SCHEMES, type EmailScheme } from "./email-scheme";

/** The last scheme chosen on any preview, kept in this browser only (it is a viewing preference, not an account setting). */
export const SCHEME_STORAGE_KEY = "email-preview-scheme";
const CHANGED = "email-preview-scheme-changed";
/** The choice of this page when storage refuses it (private mode, storage turned off). */
let unstored: EmailScheme | null = null;

function read(): EmailScheme {
  if (unstored) return unstored;
  try {
    const stored = window.localStorage.getItem(SCHEME_STORAGE_KEY);
    return EMAIL_SCHEMES.includes(stored as EmailScheme) ? (stored as EmailScheme) : "light";
  } catch {
    return "light"; // storage refused: the preview starts light
  }
}

function subscribe(onChange: () => void) {
  window.addEventListener("storage", onChange); // another tab
  window.addEventListener(CHANGED, onChange); // another switch on this page
  return () => {
    window.removeEventListener("storage", onChange);
    window.removeEventListener(CHANGED, onChange);
  };
}

/** The preview's scheme and its setter, remembered across screens and visits; light while the server renders. */
export function useEmailScheme(): [EmailScheme, (scheme: EmailScheme) => void] {
  const scheme = React.useSyncExternalStore(subscribe, read, () => "light" as const);
  const set = React.useCallback((next: EmailScheme) => {
    try {
      window.localStorage.setItem(SCHEME_STORAGE_KEY, next);
    } catch {
      unstored = next; // not remembered, but followed on this page
    }
    window.dispatchEvent(new Event(CHANGED));
  }, []);
  return [scheme, set];
}
