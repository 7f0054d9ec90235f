/**
 * The Content-Security-Policy of a report's HTML: its own inline styles and data: images, no
 * script and no request at all. The report carries it in a meta tag, the server sends it as a
 * header, and the desktop app prints the report to PDF under it. A module of its own, so the
 * Electron main process loads the policy and nothing of the server.
 */
export const reportContentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";
