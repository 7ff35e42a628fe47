import i18n from 'i18next';
// As text, not as the module app/i18n.ts imports: the actions' English texts then come with the
// actions' code, and the first render carries none of them (its import leaves `userActions` out).
import english from '../../../locales/en/translation.json?raw';
import type { Translation } from '../../../locales/translation-types.ts';

const { userActions } = JSON.parse(english) as Translation;
// The other languages' chunks hold these texts already.
i18n.addResourceBundle('en', 'translation', { userActions }, true, false);

/** The actions as their texts name them (locales/…/translation.json, `userActions`). */
export type ActionKey = 'invite' | 'setUserType' | 'disable' | 'enable' | 'remove';
