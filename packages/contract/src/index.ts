export * from './app-config.ts';
export * from './errors.ts';
export * from './session.ts';
export * from './users.ts';
