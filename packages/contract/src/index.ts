export * from './app-config.ts';
export * from './errors.ts';
export * from './export.ts';
export * from './preferences.ts';
export * from './session.ts';
export * from './user-action-values.ts';
export type * from './user-actions.ts';
export * from './users.ts';
