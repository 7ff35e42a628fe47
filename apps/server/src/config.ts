import path from 'node:path';
import { type AppConfig, INVITATION_TTL_DEFAULT, isSupportUrl, SUPPORT_URL_DEFAULT } from '@users-admin/contract';
import { z } from 'zod';

const optionalUrl = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value === '' ? undefined : value))
  .pipe(z.url().optional());

/**
 * An http(s) URL or a path on this server (`/mfe/…`). Unset gives undefined; set but empty gives
 * '', which turns a setting with a default off.
 */
const urlOrPath = z
  .string()
  .trim()
  .refine((value) => value === '' || /^\/(?!\/)/.test(value) || (URL.canParse(value) && /^https?:\/\//.test(value)), {
    message: 'expected an http(s) URL, a path starting with /, or nothing',
  })
  .optional();

/** The reference micro-frontends this server ships (routes/micro-frontends.ts), the local defaults. */
export const REFERENCE_SCRIPTS = {
  monitoring: '/mfe/monitoring.js',
  globalNavigator: '/mfe/global-navigator.js',
} as const;

/**
 * Fastify's trustProxy: `true` trusts every proxy, anything else is a comma-separated list of
 * proxy addresses or CIDR ranges. Unset or `false`: no proxy is trusted. (A hop count is not
 * offered: Fastify 5 treats it as trusting nothing, since it cannot check the nearest peer.)
 */
const trustProxy = z
  .string()
  .trim()
  .optional()
  .transform((value): boolean | string => {
    if (value === undefined || value === '' || value === 'false') return false;
    return value === 'true' ? true : value;
  });

/** A whole number of at least `min`, `fallback` when unset. */
const atLeast = (min: number, fallback: number) => z.coerce.number().int().min(min).default(fallback);
const TWO_WEEKS = 14 * 24 * 3600;

/** Every setting the server reads, parsed once from the environment (documented in README.md). */
const environmentSchema = z.object({
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().optional(),
  DATABASE_URL: optionalUrl,
  DB_QUERY_TIMEOUT_MS: atLeast(0, 3000),
  PUBLIC_URL: optionalUrl,
  SESSION_SECRET: z.string().min(32).optional(),
  ACCESS_TOKEN_TTL: atLeast(10, 300),
  IDP_SESSION_TTL: atLeast(60, TWO_WEEKS),
  SESSION_TTL: atLeast(60, TWO_WEEKS),
  OIDC_ISSUER: optionalUrl,
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  OIDC_ORG_CLAIM: z.string().default('org_id'),
  OIDC_LOCALE_CLAIM: z.string().default('locale'),
  OIDC_SCOPES: z.string().trim().min(1).default('openid email profile org'),
  SEED_DEMO: z.enum(['true', 'false']).default('true'),
  WEB_DIST: z.string().optional(),
  HOME_URL: urlOrPath,
  LAUNCHPAD_URL: urlOrPath,
  MONITORING_SCRIPT_URL: urlOrPath,
  GLOBAL_NAVIGATOR_SCRIPT_URL: urlOrPath,
  SUPPORT_URL: z
    .string()
    .trim()
    .refine(isSupportUrl, { message: 'expected a mailto: address or an https URL' })
    .default(SUPPORT_URL_DEFAULT),
  TRUST_PROXY: trustProxy,
  SIGN_IN_MAX_ATTEMPTS: atLeast(1, 5),
  SIGN_IN_WINDOW: atLeast(1, 900),
  JOB_BATCH_SIZE: atLeast(1, 1000),
  JOB_LEASE_SECONDS: atLeast(1, 30),
  STARTUP_TIMEOUT: atLeast(0, 60),
  SMTP_URL: optionalUrl.refine((url) => !url || /^smtps?:\/\/[^/]/.test(url), 'expected smtp:// or smtps://'),
  MAIL_FROM: z.string().trim().min(3).default('Users admin <no-reply@localhost>'),
  INVITATION_TTL: atLeast(60, INVITATION_TTL_DEFAULT),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = ReturnType<typeof loadConfig>;

const serverRoot = path.resolve(import.meta.dirname, '..');

/**
 * Home and launchpad are left out unless set: the page derives them from its host name. The two
 * scripts default to this server's reference ones; set to nothing, a script is not loaded.
 */
function appConfigFrom(e: z.infer<typeof environmentSchema>): AppConfig {
  const monitoringScriptUrl = e.MONITORING_SCRIPT_URL ?? REFERENCE_SCRIPTS.monitoring;
  const globalNavigatorScriptUrl = e.GLOBAL_NAVIGATOR_SCRIPT_URL ?? REFERENCE_SCRIPTS.globalNavigator;
  return {
    ...(e.HOME_URL ? { homeUrl: e.HOME_URL } : {}),
    ...(e.LAUNCHPAD_URL ? { launchpadUrl: e.LAUNCHPAD_URL } : {}),
    ...(monitoringScriptUrl ? { monitoringScriptUrl } : {}),
    ...(globalNavigatorScriptUrl ? { globalNavigatorScriptUrl } : {}),
    supportUrl: e.SUPPORT_URL,
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const parsed = environmentSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${problems.join('\n')}`);
  }
  const e = parsed.data;
  const { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret } = e;
  if (issuer && !(clientId && clientSecret)) {
    throw new Error('Invalid configuration: OIDC_ISSUER needs OIDC_CLIENT_ID and OIDC_CLIENT_SECRET');
  }
  const webDist = path.resolve(e.WEB_DIST ?? path.join(serverRoot, '../web/dist'));
  const displayHost = e.HOST === '0.0.0.0' || e.HOST === '::' ? '127.0.0.1' : e.HOST;
  return {
    host: e.HOST,
    port: e.PORT,
    /** The origin browsers use to reach this server; the OIDC redirect URIs are built on it. */
    publicUrl: (e.PUBLIC_URL ?? `http://${displayHost}:${e.PORT}`).replace(/\/$/, ''),
    // By default the repository's `data` folder, whichever folder a command runs in: `npm start` runs
    // the server from the root, `npm run seed` and `npm run dev` from apps/server, and they must
    // share one database. A DATA_DIR that is set is taken from the folder the command runs in.
    dataDir: e.DATA_DIR ? path.resolve(e.DATA_DIR) : path.join(serverRoot, '../../data'),
    databaseUrl: e.DATABASE_URL,
    /** PostgreSQL: the longest a request's statement may run; 0 for no limit. */
    databaseQueryTimeoutMs: e.DB_QUERY_TIMEOUT_MS,
    sessionSecret: e.SESSION_SECRET,
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL,
    idpSessionTtlSeconds: e.IDP_SESSION_TTL,
    sessionTtlSeconds: e.SESSION_TTL,
    /** An external OpenID provider; when absent the embedded one is mounted at `/idp`. */
    externalIssuer: issuer && clientId && clientSecret ? { issuer, clientId, clientSecret } : undefined,
    orgClaim: e.OIDC_ORG_CLAIM,
    localeClaim: e.OIDC_LOCALE_CLAIM,
    /** The scopes an external issuer is asked for (the embedded one always gets its own). */
    scopes: e.OIDC_SCOPES,
    seedDemo: e.SEED_DEMO === 'true',
    webDist,
    logLevel: e.LOG_LEVEL,
    /** Seconds a start may take before it gives up and says where it stopped; 0 for no limit. */
    startUpTimeoutSeconds: e.STARTUP_TIMEOUT,
    /** Proxies whose X-Forwarded-* headers are believed (client address, https). */
    trustProxy: e.TRUST_PROXY,
    /** Sign-in attempts allowed per e-mail address and client address in a window of seconds. */
    signInLimits: { maxAttempts: e.SIGN_IN_MAX_ATTEMPTS, windowSeconds: e.SIGN_IN_WINDOW },
    /** Users per batch of a job (one transaction); how long a job stays with an instance that stopped answering. */
    jobs: { batchSize: e.JOB_BATCH_SIZE, leaseSeconds: e.JOB_LEASE_SECONDS },
    /** Where mail goes (nodemailer); unset, it stays in the outbox and each link is logged. */
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    /** Seconds an invitation link works. */
    invitationTtlSeconds: e.INVITATION_TTL,
    /** What the page is told at start-up (SPEC.md §2, §7). */
    app: appConfigFrom(e),
  };
}
