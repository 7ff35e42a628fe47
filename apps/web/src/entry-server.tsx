// The Users page drawn by the server (issue 6): the page's first render, with its first rows, in
// the HTML the server sends, so that the rows are on screen as soon as the HTML is, instead of
// after the page's code has downloaded and run. Built apart (`vite build --ssr`, apps/web/dist-server)
// and called by the API server's web-app plugin (apps/server/src/plugins/web-app.ts).
//
// It makes the page's own calls, session lookup, users list and chosen columns, through the server
// (with the browser's cookies), and renders the page's own components with their answers. Whenever that is
// not the page the browser would draw on its own (no session, a refused call, a language written
// right to left), it draws nothing and the server sends the plain page. The browser still makes
// its calls as SPEC.md §7 says, and takes the drawn page over once they have answered (main.tsx):
// until then the drawn page is inert, as its controls do nothing before the page's code runs.
import createCache from '@emotion/cache';
import type { QueryClient } from '@tanstack/react-query';
import {
  preferencesPath,
  SESSION_PATH,
  type ServerRenderRequest,
  type SessionClaims,
  USER_COLUMNS,
  type UserColumn,
  usersPath,
} from '@users-admin/contract';
import type { i18n as I18n } from 'i18next';
import { renderToString } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { StaticRouter } from 'react-router';
import { getAppConfigQueryOptions, globalNavigatorPlace, parseAppConfig, resolveAppConfig } from './app/app-config.ts';
import { documentLanguage, initI18n, loadLanguage, resolveLanguage } from './app/i18n.ts';
import { AppProviders, createQueryClient } from './app/providers.tsx';
import { AppRoutes } from './app/router.tsx';
import { SERVER_RENDERED_ATTRIBUTE } from './app/server-rendered.ts';
import { preloadAllLazyParts } from './components/lazy-part.ts';
import { paths } from './config/paths.ts';
import { getSession, getSessionQueryOptions } from './features/session/api/get-session.ts';
import { getUserColumns, getUserColumnsQueryOptions } from './features/users/api/get-user-columns.ts';
import { getUsers, getUsersQueryOptions, type UsersList } from './features/users/api/get-users.ts';
import { parseUsersSearchParams } from './features/users/model/users-url-query.ts';
import { createEarlyCalls } from './lib/http/early-calls.ts';
import { createHttpClient } from './lib/http/http-client.ts';

const i18n = initI18n();

const ROOT = '<div id="root"></div>';

/**
 * The page's HTML with the page drawn in its root, or undefined when the server cannot draw it
 * (it then sends the plain page). Long as one piece: each step decides whether the page can be
 * drawn, and the first that cannot ends it.
 */
export async function renderPage(request: ServerRenderRequest): Promise<string | undefined> {
  const url = new URL(request.url, 'http://page.invalid');
  const [before, after] = request.template.split(ROOT);
  if (url.pathname !== paths.users || before === undefined || after === undefined) return undefined;

  // The page's own calls, made as the browser makes them; a refusal is not renewed here (the
  // browser's page signs in silently), so the plain page is sent.
  const client = createHttpClient({
    fetch: (input, init) => request.fetch(String(input), init ?? {}),
    reauthenticate: async () => false,
    earlyCalls: createEarlyCalls(),
  });
  let session: SessionClaims;
  let list: UsersList;
  let columns: UserColumn[];
  const query = parseUsersSearchParams(url.searchParams);
  try {
    session = await getSession({ client, signIn: async () => false });
    if (session.org_id === '') return undefined;
    // Without the chosen columns the drawn table could be another than the browser's: none is drawn.
    [list, columns] = await Promise.all([
      getUsers(session.org_id, query, { client }),
      getUserColumns(session.org_id, { client }),
    ]);
  } catch {
    return undefined;
  }
  const language = resolveLanguage(session.locale);
  await loadLanguage(language);
  if (i18n.dir(language) !== 'ltr') return undefined;
  // The language's own i18next instance (sharing the texts): pages drawn at the same time in other
  // languages do not switch it under this one.
  const texts = inLanguage(language);

  const queryClient: QueryClient = createQueryClient();
  queryClient.setQueryData(getSessionQueryOptions().queryKey, session);
  queryClient.setQueryData(getUsersQueryOptions(session.org_id, query).queryKey, list);
  queryClient.setQueryData(getUserColumnsQueryOptions(session.org_id).queryKey, columns);
  queryClient.setQueryData(
    getAppConfigQueryOptions().queryKey,
    resolveAppConfig(parseAppConfig(request.config), request.location),
  );
  // Emotion's server cache remembers which styles it has written: one per page drawn.
  const emotionCache = createCache({ key: 'css' });
  await lazyPartsLoaded;
  const html = renderToString(
    <I18nextProvider i18n={texts}>
      <StaticRouter location={`${url.pathname}${url.search}`}>
        <AppProviders queryClient={queryClient} emotionCache={emotionCache}>
          <AppRoutes />
        </AppProviders>
      </StaticRouter>
    </I18nextProvider>,
  );
  queryClient.clear();
  const { styles, body } = separateStyles(html, request.template);
  const head = before
    .replace(/<html lang="[^"]*"/, () => `<html lang="${escapeAttribute(documentLanguage(language))}"`)
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeText(texts.t('users.title'))}</title>`)
    .replace('</head>', () => `${styles}</head>`);
  // The global navigator's place, which the page keeps for it from the start (app-config.ts), is
  // there from the first paint: the drawn page does not move down when the page's code runs.
  const navigatorPlace = request.config.globalNavigatorScriptUrl ? globalNavigatorPlace() : '';
  return `${head}${navigatorPlace}<div id="root" ${SERVER_RENDERED_ATTRIBUTE} inert>${body}</div>${after}`;
}

/** A made-up organisation's first page, drawn by `warmUp`. */
const WARM_UP_ANSWERS: Record<string, unknown> = {
  [SESSION_PATH]: { sub: 'warm-up', org_id: 'warm-up', locale: 'en' },
  [usersPath('warm-up')]: {
    data: [
      {
        type: 'users',
        id: 'warm-up',
        attributes: {
          name: 'Warm Up',
          email: 'warm.up@example.com',
          initials: 'WU',
          first_name: 'Warm',
          last_name: 'Up',
          status: 'pending',
          is_external: false,
          is_system_admin: true,
          last_sign_in_at: '2026-01-01T00:00:00.000Z',
          created_at: '2025-01-01T00:00:00.000Z',
        },
      },
    ],
    links: { self: '/', first: '/', last: '/' },
    meta: { total_count: 1, total_count_relation: 'eq' },
  },
  // Every column, so that the first page drawn for someone runs none of their code for the first time.
  [preferencesPath('warm-up')]: {
    data: { type: 'preferences', id: 'warm-up', attributes: { users_columns: [...USER_COLUMNS] } },
  },
};

/**
 * Draws a made-up page once, at the server's start: the first page drawn for someone then does not
 * pay for the code's first run (150 ms here, against 20 ms after).
 */
export async function warmUp(template: string): Promise<boolean> {
  const drawn = await renderPage({
    url: '/',
    template,
    config: {},
    location: { protocol: 'http:', hostname: 'localhost', port: '' },
    fetch: async (address) => {
      const answer = WARM_UP_ANSWERS[address.split('?')[0] ?? ''];
      return new Response(JSON.stringify(answer ?? null), {
        status: answer === undefined ? 404 : 200,
        headers: { 'content-type': 'application/json' },
      });
    },
  });
  return drawn?.includes(SERVER_RENDERED_ATTRIBUTE) ?? false;
}

const languages = new Map<string, I18n>();

function inLanguage(language: string): I18n {
  let instance = languages.get(language);
  if (!instance) {
    instance = i18n.cloneInstance({ lng: language });
    languages.set(language, instance);
  }
  return instance;
}

/** Every lazily loaded part (the footer, the menus), loaded once: the server draws any a page shows. */
const lazyPartsLoaded = preloadAllLazyParts();

const EMOTION_STYLE = /<style data-emotion="([^"]+)"[^>]*>(.*?)<\/style>/gs;

/**
 * The styles Emotion wrote beside the drawn page, taken out of it: those the HTML's head does not
 * already hold (the build wrote the usual first render's there: build/first-render-styles.ts), in
 * one element (and the global ones in theirs), for the head. Emotion adopts them as it starts, so
 * the page does not insert them again.
 */
export function separateStyles(html: string, template: string): { styles: string; body: string } {
  const known = new Set<string>();
  for (const [, attribute = ''] of template.matchAll(EMOTION_STYLE)) {
    for (const id of attribute.split(' ').slice(1)) known.add(id);
  }
  const globals: string[] = [];
  const ids: string[] = [];
  let css = '';
  const body = html.replace(EMOTION_STYLE, (_, attribute: string, rules: string) => {
    const [key, ...names] = attribute.split(' ');
    const added = names.filter((name) => !known.has(name));
    for (const name of added) known.add(name);
    if (added.length === 0) return '';
    if (key === 'css-global') globals.push(`<style data-emotion="${attribute}">${rules}</style>`);
    else {
      ids.push(...added);
      css += rules;
    }
    return '';
  });
  if (ids.length > 0) globals.push(`<style data-emotion="css ${ids.join(' ')}">${css}</style>`);
  return { styles: globals.join(''), body };
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttribute(text: string): string {
  return escapeText(text).replace(/"/g, '&quot;');
}
