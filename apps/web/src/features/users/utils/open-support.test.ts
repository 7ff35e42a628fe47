// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { openSupport } from './open-support.ts';

const fakeWindow = () => ({ open: vi.fn(), location: { assign: vi.fn() } as unknown as Location });

describe('Contact support', () => {
  it('hands a mailto: address to the mail client, in place', () => {
    const win = fakeWindow();
    openSupport('mailto:help@acme.example', win);
    expect(win.location.assign).toHaveBeenCalledWith('mailto:help@acme.example');
    expect(win.open).not.toHaveBeenCalled();
  });

  it('opens an https address in a new tab that cannot reach back to the page', () => {
    const win = fakeWindow();
    openSupport('https://support.acme.example/', win);
    expect(win.open).toHaveBeenCalledWith('https://support.acme.example/', '_blank', 'noopener,noreferrer');
  });

  it.each([undefined, 'javascript:alert(1)', 'http://support.acme.example/'])('uses the default for %s', (url) => {
    const win = fakeWindow();
    openSupport(url, win);
    expect(win.location.assign).toHaveBeenCalledWith('mailto:support@platform.example');
  });
});
