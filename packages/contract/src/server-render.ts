import type { AppConfig } from './app-config.ts';

/**
 * The Users page drawn by the server (issue 6): the web app's server build
 * (apps/web/src/entry-server.tsx) exports `renderPage`, and the API server's web-app plugin
 * calls it for the page's own address. The page's first rows are then in the HTML, and the page
 * takes them over (hydrates) once its code has run and its own calls (SPEC.md §7) have answered.
 */
export interface ServerRenderRequest {
  /** The address the browser asked for: path and query. */
  url: string;
  /** The page's index.html as the server sends it (configuration included). */
  template: string;
  /** The configuration the template carries. */
  config: AppConfig;
  /** The address as the browser sees it: the home and launchpad addresses derive from it. */
  location: { protocol: string; hostname: string; port: string };
  /** Makes one of the page's calls as the browser would, with the browser's cookies. */
  fetch: (path: string, init: RequestInit) => Promise<Response>;
}

/** The page's HTML with its first render in it, or undefined when the server cannot draw it. */
export type RenderPage = (request: ServerRenderRequest) => Promise<string | undefined>;

/** The module the web app's server build writes (apps/web/dist-server/entry-server.js). */
export interface ServerRenderModule {
  renderPage: RenderPage;
  /** Draws a made-up page once, so that the first real one does not pay for the code's first run; false if it could not. */
  warmUp: (template: string) => Promise<boolean>;
}
