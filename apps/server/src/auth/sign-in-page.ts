const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export const SIGN_IN_CSS = `
:root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f4f6f8; color: #1a1a1a; }
main { width: min(400px, calc(100vw - 32px)); background: #fff; border-radius: 8px; padding: 32px;
  box-shadow: 0 1px 3px rgba(0,0,0,.12), 0 1px 2px rgba(0,0,0,.24); box-sizing: border-box; }
h1 { font-size: 1.5rem; margin: 0 0 24px; }
label { display: block; font-weight: 600; margin: 16px 0 4px; }
input { width: 100%; box-sizing: border-box; font: inherit; padding: 10px 12px; border: 1px solid #767676; border-radius: 4px; }
input:focus-visible, button:focus-visible { outline: 3px solid #1565c0; outline-offset: 2px; }
button { margin-top: 24px; width: 100%; font: inherit; font-weight: 600; padding: 10px; border: 0; border-radius: 4px;
  background: #1565c0; color: #fff; cursor: pointer; }
[role=alert] { background: #fdecea; color: #8a1c1c; padding: 8px 12px; border-radius: 4px; margin-bottom: 8px; }
.hint { margin-top: 24px; font-size: .875rem; color: #555; }
`;

/** The embedded identity provider's sign-in page: plain HTML, no script, works without JavaScript. */
export function renderSignInPage(options: { action: string; email?: string; error?: string }): string {
  const error = options.error ? `<p role="alert">${escapeHtml(options.error)}</p>` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in</title>
<link rel="stylesheet" href="/interaction/sign-in.css">
</head>
<body>
<main>
<h1>Sign in</h1>
${error}
<form method="post" action="${escapeHtml(options.action)}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required autofocus value="${escapeHtml(options.email ?? '')}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
</main>
</body>
</html>`;
}
