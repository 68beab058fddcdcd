import { alertPreferenceLimits, messages } from '@petreg/contract';
import { escapeHtml } from '../../adapters/mail/html.js';
import { page } from './pages.js';
import type { PreferencesFormValues, PreferencesView, SavedPreferences } from './preferences.js';

const title = 'Lost pet alert preferences';

/** Fields stacked one under another, full width, with room for a thumb; errors in red beside their field. */
const css =
  'fieldset{border:0;padding:0;margin:0 0 1.25rem}legend,label.field{display:block;font-weight:600;margin-bottom:.25rem}' +
  '.choice{display:flex;align-items:center;gap:.5rem;min-height:2.5rem}.choice input{width:1.25rem;height:1.25rem;margin:0}' +
  'input[type=number],input[type=date]{display:block;box-sizing:border-box;width:100%;max-width:14rem;font:inherit;padding:.5rem;border:1px solid #9aa5b1;border-radius:4px}' +
  '.hint{color:#52606d;font-size:.9rem;margin:.25rem 0 0}.error{color:#b00020;margin:.25rem 0 0}[aria-invalid=true]{border-color:#b00020}' +
  '.notice{padding:.75rem 1rem;border-radius:4px;background:#e3f2fd;margin:0 0 1.25rem}.problems{padding:.75rem 1rem;border-radius:4px;background:#fdecea;margin:0 0 1.25rem}' +
  '.species{display:grid;grid-template-columns:repeat(auto-fill,minmax(9rem,1fr));column-gap:1rem}button{width:100%;max-width:14rem;min-height:2.75rem}';

const longDate = (date: string) =>
  new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));

type Errors = Partial<Record<string, string>>;

/** A field's message under it, named by the field (aria-describedby) so a screen reader reads it with the field. */
const errorOf = (errors: Errors, field: string) => (errors[field] ? `<p class="error" id="${field}-error">${escapeHtml(errors[field])}</p>` : '');
const invalid = (errors: Errors, field: string) => (errors[field] ? ` aria-invalid="true" aria-describedby="${field}-error"` : '');

/** The text a field shows: what was typed when the form came back with messages, otherwise the stored choice. */
const shown = (typed: PreferencesFormValues | undefined, field: string, stored: string) => {
  const value = typed?.[field];
  return typed ? (typeof value === 'string' ? value : '') : stored;
};

/** The form of a preferences link, with the address's choices, and what just happened (saved, or the messages). */
export function preferencesPage(view: PreferencesView, outcome?: SavedPreferences): string {
  const errors: Errors = outcome && !outcome.saved ? outcome.errors : {};
  const typed = outcome && !outcome.saved ? outcome.typed : undefined;
  const typedSpecies = typed ? [typed.species ?? []].flat() : undefined;
  const receiving = typed ? typed.receive !== 'no' : !view.unsubscribed;
  const tomorrow = new Date(Date.parse(`${view.today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const status = view.unsubscribed
    ? `<p class="notice" role="status">${outcome?.saved ? 'You are unsubscribed: ' : ''}We send no lost pet alerts to this address. Choose “Yes” and save to receive them again.</p>`
    : outcome?.saved
      ? `<p class="notice" role="status">${escapeHtml(messages.alertPreferencesSaved)}</p>`
      : '';
  const problems = Object.values(errors).filter(Boolean) as string[];
  const summary = problems.length
    ? `<div class="problems" role="alert"><strong>Please check the form:</strong><ul>${problems.map((p) => `<li>${escapeHtml(p)}</li>`).join('')}</ul></div>`
    : '';
  const species = view.species
    .map((s) => {
      const checked = typedSpecies ? typedSpecies.includes(String(s.id)) : s.chosen;
      return `<label class="choice"><input type="checkbox" name="species" value="${s.id}"${checked ? ' checked' : ''}>${escapeHtml(s.name)}</label>`;
    })
    .join('');
  const pause = view.pausedUntil && !typed && !view.unsubscribed ? `<p class="hint">Paused: no alerts before ${escapeHtml(longDate(view.pausedUntil))}.</p>` : '';
  const body =
    `<p>For <strong>${escapeHtml(view.email)}</strong>. Choose which lost pet alerts this address receives: they apply to every site that gives it.</p>` +
    status +
    summary +
    `<form method="post" novalidate>` +
    `<fieldset><legend>Receive lost pet alerts</legend>` +
    `<label class="choice"><input type="radio" name="receive" value="yes"${receiving ? ' checked' : ''}>Yes, as chosen below</label>` +
    `<label class="choice"><input type="radio" name="receive" value="no"${receiving ? '' : ' checked'}>No, unsubscribe this address</label>${errorOf(errors, 'receive')}</fieldset>` +
    `<fieldset${errors.species ? ' aria-describedby="species-error"' : ''}><legend>Species</legend><div class="species">${species}</div>${errorOf(errors, 'species')}</fieldset>` +
    `<p><label class="field" for="radiusMiles">Radius in miles</label>` +
    `<input id="radiusMiles" name="radiusMiles" type="number" inputmode="numeric" min="1" max="${alertPreferenceLimits.radiusMilesMax}" value="${escapeHtml(shown(typed, 'radiusMiles', String(view.radiusMiles)))}"${invalid(errors, 'radiusMiles')}>` +
    `<span class="hint">Alerts about pets last seen this far from your site, ${alertPreferenceLimits.radiusMilesMax} at most.</span>${errorOf(errors, 'radiusMiles')}</p>` +
    `<p><label class="field" for="dailyCap">Alerts a day at most</label>` +
    `<input id="dailyCap" name="dailyCap" type="number" inputmode="numeric" min="1" max="${alertPreferenceLimits.dailyCapMax}" value="${escapeHtml(shown(typed, 'dailyCap', view.dailyCap === null ? '' : String(view.dailyCap)))}"${invalid(errors, 'dailyCap')}>` +
    `<span class="hint">Leave blank for no limit.</span>${errorOf(errors, 'dailyCap')}</p>` +
    `<p><label class="field" for="pausedUntil">Pause alerts until</label>` +
    `<input id="pausedUntil" name="pausedUntil" type="date" min="${tomorrow}" value="${escapeHtml(shown(typed, 'pausedUntil', view.pausedUntil ?? ''))}"${invalid(errors, 'pausedUntil')}>` +
    `<span class="hint">Alerts start again on that date. Leave blank to keep receiving them.</span>${errorOf(errors, 'pausedUntil')}${pause}</p>` +
    `<button type="submit">Save preferences</button>` +
    `</form>`;
  return page(title, body, css);
}

export function unknownPreferencesPage(): string {
  return page('Link not recognised', '<p>This preferences link is not valid. Please use the link in the most recent alert you received.</p>');
}
