import { describe, expect, it } from 'vitest';
import { messages } from './messages.js';
import { adminSiteSchema, completeWebAddress, siteCreateSchema } from './site.js';

describe('completeWebAddress', () => {
  it('completes a website typed without its scheme to https', () => {
    expect(completeWebAddress('www.vet.com')).toBe('https://www.vet.com');
    expect(completeWebAddress('vet.com/hours?day=mon')).toBe('https://vet.com/hours?day=mon');
    expect(completeWebAddress('www.vet.com:8080/')).toBe('https://www.vet.com:8080/');
    expect(completeWebAddress('//www.vet.com')).toBe('https://www.vet.com');
  });

  it('keeps an address that names http or https as typed', () => {
    expect(completeWebAddress('http://www.vet.com')).toBe('http://www.vet.com');
    expect(completeWebAddress('HTTPS://Vet.Example.org/a')).toBe('HTTPS://Vet.Example.org/a');
  });

  it('refuses another scheme, spaces, and a host without a dot', () => {
    for (const text of ['ftp://vet.example.org', 'javascript:alert(1)', 'mailto:desk@vet.com', 'www.vet .com', 'vet', 'https://localhost', 'https://', 'https://.com']) {
      expect(completeWebAddress(text), text).toBeNull();
    }
  });
});

describe('the website of a site form', () => {
  const site = { name: 'Vet', kind: 'Veterinary Care', zipCode: '63101', receivesAlerts: false };

  it('is completed the same by the administrators’ form (and so a CSV row) and the owner’s own entry', () => {
    expect(adminSiteSchema.parse({ ...site, url: ' www.vet.com ' }).url).toBe('https://www.vet.com');
    expect(siteCreateSchema.parse({ name: 'Vet', url: 'www.vet.com' }).url).toBe('https://www.vet.com');
    expect(adminSiteSchema.parse({ ...site, url: '' }).url).toBeNull();
  });

  it('answers the field message for an address it cannot complete', () => {
    const parsed = adminSiteSchema.safeParse({ ...site, url: 'ftp://vet.example.org' });
    expect(parsed.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([[['url'], messages.siteUrlInvalid]]);
  });
});
