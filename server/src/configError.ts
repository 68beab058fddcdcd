/** A setting the portal cannot start with: its message is one line naming the variable. */
export class ConfigError extends Error {}
