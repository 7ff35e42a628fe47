import 'i18next';
import type { Translation } from '../app/i18n.ts';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: Translation };
    returnNull: false;
  }
}
