import { preloadFirstRenderParts } from '../components/lazy-part.ts';
import '../features/users/components/first-render-parts.ts';
import { SERVER_RENDERED_ATTRIBUTE } from './server-rendered.ts';

// main.tsx imports this module second. The server drew the lazy parts of the first render (the
// footer) too; their code starts loading now, as the bundle starts to run, so that the page usually
// takes the whole drawn page over at once (a part still loading is taken over once it has loaded).
if (document.getElementById('root')?.hasAttribute(SERVER_RENDERED_ATTRIBUTE)) void preloadFirstRenderParts();
