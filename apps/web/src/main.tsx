import '@fontsource-variable/inter';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { loadAppConfig, loadStartupScripts } from './app/app-config.ts';
import { initI18n } from './app/i18n.ts';
import { paths } from './config/paths.ts';

initI18n();

function mount() {
  const root = document.getElementById('root');
  if (!root) throw new Error('The page has no #root element');
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

// The start-up scripts go into the head before the page mounts (SPEC.md §7), and are not waited
// for; the hidden frame of a silent sign-in needs neither.
void loadAppConfig()
  .then((config) => {
    if (window.location.pathname !== paths.oidcCallback) loadStartupScripts(config);
  })
  .catch((error: unknown) => console.error('The start-up scripts could not be added', error))
  .then(mount);
