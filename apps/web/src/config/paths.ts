/** The page's routes (SPEC.md §2), relative to the root. */
export const paths = {
  users: '/',
  oidcCallback: '/oidc/callback',
  logout: '/logout',
  loginCallback: '/login/callback',
} as const;

/** The server route that signs out of the server and the identity provider. */
export const SERVER_LOGOUT_PATH = '/auth/logout';
