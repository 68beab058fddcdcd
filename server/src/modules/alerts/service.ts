import { createAlertAnalytics } from './analytics.js';
import { createAlertFound } from './found.js';
import { createAlertPreferences } from './preferences.js';
import { createAlertPrice } from './price.js';
import { createAlertSending } from './sending.js';
import type { AlertDeps } from './shared.js';
import { createAlertTracking } from './tracking.js';

export type AlertService = ReturnType<typeof createAlertService>;

/** The alerts module, one part per use case over the same dependencies. */
export function createAlertService(deps: AlertDeps) {
  return {
    ...createAlertSending(deps),
    ...createAlertAnalytics(deps),
    ...createAlertFound(deps),
    ...createAlertPrice(deps),
    ...createAlertTracking(deps),
    ...createAlertPreferences(deps),
  };
}
