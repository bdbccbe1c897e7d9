import type { NextPageContext } from "next";

/**
 * Next refuses some requests before any route of ours runs — a path whose percent-encoding
 * does not decode (`/p/%zz`, `/api/p/x/messages/%E0%A4%A`) — and renders the pages-router
 * error page for them with status 400. An app-router build has none, so the answer was a
 * bare 500. This is that page: a 400 page for people, and for /api paths the dashboard's
 * JSON error shape naming the path. It is used for nothing else (every screen is in app/).
 */
type Props = { statusCode: number };

export default function ErrorPage({ statusCode }: Props) {
  const bad = statusCode === 400;
  return (
    <main>
      <h1>{bad ? "This address is not valid" : "Something went wrong"}</h1>
      <p>
        {bad
          ? "Part of the link is not properly encoded (a stray % or characters that cannot be decoded). Check the link with whoever sent it."
          : "The page could not be shown. Try again in a moment."}
      </p>
      <p>
        <a href="/">Go to the dashboard</a>
      </p>
    </main>
  );
}

ErrorPage.getInitialProps = ({ req, res, err }: NextPageContext): Props => {
  const statusCode = res?.statusCode ?? err?.statusCode ?? 500;
  if (req?.url?.startsWith("/api/") && res && !res.headersSent) {
    const bad = statusCode === 400;
    const error = bad
      ? { message: "path: the address is not valid percent-encoding", code: "validation_error", param: "path" }
      : { message: "Something went wrong on our side.", code: "internal_error", param: null };
    res.statusCode = statusCode;
    res.setHeader("Content-Type", "application/json");
    res.setHeader("Cache-Control", "no-store");
    res.end(JSON.stringify({ error }));
  }
  return { statusCode };
};
