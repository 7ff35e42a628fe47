import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fastifyStatic from '@fastify/static';
import { APP_CONFIG_ELEMENT_ID, type AppConfig, type RenderPage, type ServerRenderModule } from '@users-admin/contract';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';

const SERVER_PREFIXES = [
  '/apis/',
  '/auth/',
  '/idp',
  '/interaction/',
  '/app-config.json',
  '/mfe/',
  '/healthz',
  '/readyz',
];

/**
 * The page's runtime configuration written into its HTML, so that it can add its start-up scripts
 * before it mounts without waiting for /app-config.json (SPEC.md §7). `<` is escaped so that no
 * value can close the element.
 */
export function withAppConfig(html: string, config: AppConfig): string {
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  const element = `<script id="${APP_CONFIG_ELEMENT_ID}" type="application/json">${json}</script>`;
  return html.replace('</head>', () => `    ${element}\n  </head>`);
}

/**
 * The web app's server build, which draws the Users page into its HTML (apps/web/src/entry-server.tsx);
 * undefined, and the page is drawn by the browser alone, when it is turned off, not built or broken.
 */
export async function loadPageRenderer(
  file: string | undefined,
  log: FastifyBaseLogger,
): Promise<ServerRenderModule | undefined> {
  if (file === undefined) return undefined;
  if (!existsSync(file)) {
    log.warn({ file }, 'the page is drawn by the browser alone: its server build is missing (`npm run build`)');
    return undefined;
  }
  try {
    const module = (await import(pathToFileURL(file).href)) as Partial<ServerRenderModule>;
    if (typeof module.renderPage === 'function' && typeof module.warmUp === 'function') {
      return module as ServerRenderModule;
    }
    log.error(
      { file },
      'the page is drawn by the browser alone: its server build does not export renderPage and warmUp',
    );
  } catch (error) {
    log.error({ err: error, file }, 'the page is drawn by the browser alone: its server build does not load');
  }
  return undefined;
}

/**
 * Makes one of the page's GET calls inside this server, as the browser would make it (its cookies,
 * its address), for the page drawn here.
 */
function callAsBrowser(app: FastifyInstance, request: FastifyRequest) {
  return async (url: string, init: RequestInit): Promise<Response> => {
    const accept = new Headers(init.headers).get('accept') ?? 'application/json';
    const { cookie, 'user-agent': userAgent } = request.headers;
    const answer = await app.inject({
      method: 'GET',
      url,
      headers: { accept, ...(cookie ? { cookie } : {}), ...(userAgent ? { 'user-agent': userAgent } : {}) },
      remoteAddress: request.ip,
    });
    const empty = answer.statusCode === 204 || answer.statusCode === 304;
    return new Response(empty ? null : answer.body, {
      status: answer.statusCode,
      headers: { 'content-type': String(answer.headers['content-type'] ?? '') },
    });
  };
}

/**
 * Serves the built page: hashed assets cached for a year (and compressed once, at build time), and
 * index.html for every other GET that asks for HTML, so the page's own router handles its routes
 * (SPEC.md §2). The Users page's own address gets its first render drawn into the HTML when the
 * server can draw it (a session that may list its organisation's users): the rows are on screen
 * with the HTML, and the page takes them over once its code has run (issue 6). Long as a plugin is: each route short.
 */
export async function webAppPlugin(app: FastifyInstance, options: { config: Config }) {
  const { webDist, app: appConfig, serverRenderModule } = options.config;
  const indexHtml = path.join(webDist, 'index.html');
  if (!existsSync(indexHtml)) {
    app.log.warn({ webDist }, 'the web app is not built: run `npm run build`');
  }
  await app.register(fastifyStatic, {
    root: webDist,
    wildcard: false,
    index: false,
    // The build writes a Brotli and a gzip copy beside each script and style sheet
    // (apps/web/build/precompressed-assets.ts): sent as the browser's Accept-Encoding takes them.
    preCompressed: true,
    setHeaders(res, filePath) {
      const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
      res.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });

  // index.html with the configuration, read once: a page route costs no file system call. Until
  // the page is built, every request looks again (a build after start-up needs no restart).
  let indexPage: string | undefined;
  const readIndexPage = async () => {
    if (indexPage === undefined && existsSync(indexHtml)) {
      indexPage = withAppConfig(await readFile(indexHtml, 'utf8'), appConfig);
    }
    return indexPage;
  };

  // Loaded and warmed up beside the start, not before listening: only a signed-in page needs it,
  // and a request for one that comes sooner waits for it.
  const renderPageReady = (async () => {
    const renderer = await loadPageRenderer(serverRenderModule, app.log);
    const template = await readIndexPage();
    if (renderer && template !== undefined) {
      const warm = await renderer.warmUp(template).catch(() => false);
      if (!warm) app.log.warn('the page could not be drawn at start-up: the browser may have to draw it');
    }
    return renderer?.renderPage;
  })().catch((error: unknown) => {
    app.log.error({ err: error }, 'the page is drawn by the browser alone: its server build could not be prepared');
    return undefined;
  });

  app.get('/*', async (request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const isServerPath = SERVER_PREFIXES.some((prefix) => url.startsWith(prefix));
    if (isServerPath) return reply.callNotFound();
    if (path.extname(url) !== '') {
      // A file built after start-up (the static routes list the files found at start-up).
      const assetPath = path.join(webDist, path.normalize(url));
      if (assetPath.startsWith(webDist) && existsSync(assetPath)) {
        return reply.sendFile(path.relative(webDist, assetPath));
      }
      return reply.callNotFound();
    }
    const html = await readIndexPage();
    if (html === undefined) return reply.callNotFound();
    reply.type('text/html; charset=utf-8');
    const renderPage = url === '/' ? await renderPageReady : undefined;
    if (renderPage) {
      const drawn = await drawPage(renderPage, request, html);
      // It holds the organisation's users: no cache keeps it.
      if (drawn !== undefined) return reply.header('cache-control', 'no-store').send(drawn);
    }
    return reply.header('cache-control', 'no-cache').send(html);
  });

  /** The drawn page, or undefined (the plain page is sent) when it cannot be drawn or drawing fails. */
  async function drawPage(render: RenderPage, request: FastifyRequest, template: string) {
    const started = performance.now();
    try {
      const drawn = await render({
        url: request.url,
        template,
        config: appConfig,
        location: {
          protocol: `${request.protocol}:`,
          hostname: request.hostname,
          port: request.port === null ? '' : String(request.port),
        },
        fetch: callAsBrowser(app, request),
      });
      request.log.debug({ drawn: drawn !== undefined, ms: performance.now() - started }, 'page drawn');
      return drawn;
    } catch (error) {
      request.log.error({ err: error }, 'the page could not be drawn here: the plain page is sent');
      return undefined;
    }
  }
}
