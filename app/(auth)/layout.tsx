import { MailboxStaticIcon } from "@/components/common/static-icons";

/** Sign-in and other signed-out pages: the product name and one centred card. */
export default function AuthLayout({ children }: { children: React.ReactNode }) {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-6 bg-muted/40 px-4 py-12">
      <div className="flex items-center gap-2 text-lg font-semibold tracking-tight">
        <span className="flex size-8 items-center justify-center rounded-md bg-primary text-primary-foreground">
          <MailboxStaticIcon className="size-4" aria-hidden="true" />
        </span>
        Mailroom
      </div>
      {children}
      <p className="max-w-sm text-center text-xs text-muted-foreground">The dashboard of your email service: messages, templates, domains, keys and webhooks.</p>
    </main>
  );
}
