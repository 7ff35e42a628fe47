// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { DEFAULT_REGION, hostEnvironment, platformAddresses, REGIONS } from './host-environment.ts';

describe('hostEnvironment: <app>[.<environment>][.<region>].<domain>.<tld>', () => {
  it('knows the nine regions of SPEC.md §9, and us is the default', () => {
    expect(REGIONS).toEqual(['af', 'ap', 'au', 'ca', 'eu', 'jp', 'sa', 'uk', 'us']);
    expect(DEFAULT_REGION).toBe('us');
  });

  it.each(REGIONS)('reads region %s in production and in another environment', (region) => {
    expect(hostEnvironment(`users.${region}.platform.example`)).toEqual({ environment: 'production', region });
    expect(hostEnvironment(`users.staging.${region}.platform.example`)).toEqual({ environment: 'staging', region });
    expect(hostEnvironment(`USERS.DEV.${region.toUpperCase()}.Platform.Example.`)).toEqual({
      environment: 'dev',
      region,
    });
  });

  it('falls back to region us when the host name names no region', () => {
    expect(hostEnvironment('users.platform.example')).toEqual({ environment: 'production', region: 'us' });
    expect(hostEnvironment('users.staging.platform.example')).toEqual({ environment: 'staging', region: 'us' });
    // fr is not a platform region: it is taken as the environment label, the region stays the default.
    expect(hostEnvironment('users.fr.platform.example')).toEqual({ environment: 'fr', region: 'us' });
  });

  it('does not read a region in the domain itself', () => {
    expect(hostEnvironment('users.example.uk')).toEqual({ environment: 'production', region: 'us' });
    expect(hostEnvironment('users.eu.example.uk')).toEqual({ environment: 'production', region: 'eu' });
    expect(hostEnvironment('users.platform.us')).toEqual({ environment: 'production', region: 'us' });
  });

  it.each(['localhost', 'users.localhost', '127.0.0.1', '10.1.2.3', '::1', '[::1]', 'devbox', 'platform.example'])(
    'treats %s as local, region us',
    (host) => {
      expect(hostEnvironment(host)).toEqual({ environment: 'local', region: 'us' });
    },
  );
});

describe('platformAddresses', () => {
  it('puts home and the launchpad beside the page, same protocol, region and environment', () => {
    expect(platformAddresses({ protocol: 'https:', hostname: 'users.eu.platform.example', port: '' })).toEqual({
      homeUrl: 'https://home.eu.platform.example/',
      launchpadUrl: 'https://launchpad.eu.platform.example/',
    });
    expect(
      platformAddresses({ protocol: 'http:', hostname: 'users.staging.jp.platform.example', port: '8080' }),
    ).toEqual({
      homeUrl: 'http://home.staging.jp.platform.example:8080/',
      launchpadUrl: 'http://launchpad.staging.jp.platform.example:8080/',
    });
  });

  it.each(REGIONS)('keeps region %s', (region) => {
    const { homeUrl, launchpadUrl } = platformAddresses({
      protocol: 'https:',
      hostname: `users.${region}.platform.example`,
      port: '',
    });
    expect(hostEnvironment(new URL(homeUrl).hostname).region).toBe(region);
    expect(hostEnvironment(new URL(launchpadUrl).hostname).region).toBe(region);
  });

  it('uses the page root on a local host', () => {
    expect(platformAddresses({ protocol: 'http:', hostname: '127.0.0.1', port: '3000' })).toEqual({
      homeUrl: '/',
      launchpadUrl: '/',
    });
  });
});
