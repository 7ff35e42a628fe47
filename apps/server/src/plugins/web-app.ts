import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { APP_CONFIG_ELEMENT_ID, type AppConfig } from '@users-admin/contract';
import type { FastifyInstance } from 'fastify';
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
 * Serves the built page: hashed assets cached for a year (and compressed once, at build time), and
 * index.html for every other GET that asks for HTML, so the page's own router handles its routes
 * (SPEC.md §2). The browser draws the page alone: the HTML's early script starts its first calls.
 */
export async function webAppPlugin(app: FastifyInstance, options: { config: Config }) {
  const { webDist, app: appConfig } = options.config;
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
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
  });
}
