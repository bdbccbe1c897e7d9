import type * as React from "react";

/**
 * Lucide icons drawn as plain SVG, for pages that should load no script for an icon: lucide's
 * icon component is a client component, so even an icon in a server component brings its
 * code (and a chunk of its own) to the sign-in page and the status pages. Same paths and
 * attributes as lucide's (`lucide-react/dist/esm/icons/<name>.mjs`).
 */
type IconProps = React.SVGProps<SVGSVGElement>;

/** An icon component drawing `shapes` the way lucide draws the icon called `name`. */
function staticIcon(name: string, shapes: React.ReactNode) {
  return function StaticIcon({ className, ...props }: IconProps) {
    return (
      <svg
        xmlns="http://www.w3.org/2000/svg"
        width={24}
        height={24}
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={2}
        strokeLinecap="round"
        strokeLinejoin="round"
        className={["lucide", `lucide-${name}`, className].filter(Boolean).join(" ")}
        {...props}
      >
        {shapes}
      </svg>
    );
  };
}

export const MailboxStaticIcon = staticIcon(
  "mailbox",
  <>
    <path d="M22 17a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V9.5C2 7 4 5 6.5 5H18c2.2 0 4 1.8 4 4v8Z" />
    <polyline points="15,9 18,9 18,11" />
    <path d="M6.5 5C9 5 11 7 11 9.5V17a2 2 0 0 1-2 2" />
    <line x1="6" x2="7" y1="10" y2="10" />
  </>,
);

export const FileQuestionStaticIcon = staticIcon(
  "file-question-mark",
  <>
    <path d="M6 22a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2h8a2.4 2.4 0 0 1 1.704.706l3.588 3.588A2.4 2.4 0 0 1 20 8v12a2 2 0 0 1-2 2z" />
    <path d="M9 9.5a3 2.5 0 016 0c0 2-2 2-3 3.5" />
    <path d="M12 17h.01" />
  </>,
);

export const ShieldXStaticIcon = staticIcon(
  "shield-x",
  <>
    <path d="M20 13c0 5-3.5 7.5-7.66 8.95a1 1 0 0 1-.67-.01C7.5 20.5 4 18 4 13V6a1 1 0 0 1 1-1c2 0 4.5-1.2 6.24-2.72a1.17 1.17 0 0 1 1.52 0C14.51 3.81 17 5 19 5a1 1 0 0 1 1 1z" />
    <path d="m14.5 9.5-5 5" />
    <path d="m9.5 9.5 5 5" />
  </>,
);
