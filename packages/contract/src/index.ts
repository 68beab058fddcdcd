export * from './account.js';
export * from './constants.js';
export * from './envelope.js';
export * from './format.js';
export * from './messages.js';
export * from './phone.js';
export * from './user.js';
export * from './routes.js';
