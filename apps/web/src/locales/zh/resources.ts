import { zhCN } from '@mui/material/locale';
import type { LanguageResources } from '../translation-types.ts';
import translation from './translation.json';

export const resources: LanguageResources = { translation, mui: zhCN };
