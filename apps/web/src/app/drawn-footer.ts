import { SERVER_RENDERED_ATTRIBUTE } from './server-rendered.ts';

// main.tsx imports this module second, so that it runs as the bundle starts to run rather than once
// all of it has: the code of the footer the server drew, a lazy chunk, is then asked for about 200 ms
// sooner, and the drawn page, inert until its footer is taken over (take-over.tsx), works sooner.
// The footer's own lazy part imports the same module later; a failure here is retried there.
if (document.getElementById('root')?.hasAttribute(SERVER_RENDERED_ATTRIBUTE)) {
  import('../features/users/components/users-pagination.tsx').catch(() => undefined);
}
