import * as client from 'openid-client';

const DISCOVERY_TIMEOUT_SECONDS = 10;

/**
 * The server's OpenID client (openid-client): discovers the issuer once, lazily (the embedded
 * issuer is this very server, so it can only be asked once the server listens), and retries
 * discovery after a failure instead of caching it.
 */
export function createOidcClient(options: { issuer: string; clientId: string; clientSecret: string }) {
  let configuration: Promise<client.Configuration> | undefined;
  const insecure = new URL(options.issuer).protocol === 'http:';

  return {
    issuer: options.issuer,
    configuration(): Promise<client.Configuration> {
      configuration ??= client
        .discovery(
          new URL(options.issuer),
          options.clientId,
          undefined,
          client.ClientSecretBasic(options.clientSecret),
          // An issuer that does not answer fails sign-in in seconds (503), not after the default 30 s.
          { timeout: DISCOVERY_TIMEOUT_SECONDS, ...(insecure ? { execute: [client.allowInsecureRequests] } : {}) },
        )
        .catch((error: unknown) => {
          configuration = undefined;
          throw error;
        });
      return configuration;
    },
  };
}

export type OidcClient = ReturnType<typeof createOidcClient>;
