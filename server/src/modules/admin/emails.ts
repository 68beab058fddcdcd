import { oneLine } from '@petreg/contract';
import { escapeHtml } from '../../adapters/mail/html.js';

const greeting = (firstName: string) => (firstName ? `Hi ${oneLine(firstName)},` : 'Hello,');

/** To the owner a pet was transferred away from: it no longer shows in their account. */
export function petTransferredAwayEmail(firstName: string, storedPetName: string) {
  const petName = oneLine(storedPetName);
  return {
    kind: 'transfer' as const,
    subject: `${petName} was transferred to a new owner`,
    text: `${greeting(firstName)}\n\nAt your request or the request of the pet's new family, our support team transferred ${petName}'s registration, microchip and protection to a new owner.\n${petName} no longer appears in your account.\n\nIf you did not expect this, please contact our support.\n`,
    html: `<p>${escapeHtml(greeting(firstName))}</p><p>At your request or the request of the pet's new family, our support team transferred ${escapeHtml(petName)}'s registration, microchip and protection to a new owner. ${escapeHtml(petName)} no longer appears in your account.</p><p>If you did not expect this, please contact our support.</p>`,
  };
}

/** To the owner of an existing account a pet was transferred to. */
export function petReceivedEmail(firstName: string, storedPetName: string) {
  const petName = oneLine(storedPetName);
  return {
    kind: 'transfer' as const,
    subject: `${petName} is now registered to you`,
    text: `${greeting(firstName)}\n\nOur support team transferred ${petName}'s registration, microchip and protection to your account.\nSign in to see ${petName}, check the details and add your vet. If your account is new, first choose your password with the link in our other e-mail.\n`,
    html: `<p>${escapeHtml(greeting(firstName))}</p><p>Our support team transferred ${escapeHtml(petName)}'s registration, microchip and protection to your account. Sign in to see ${escapeHtml(petName)}, check the details and add your vet. If your account is new, first choose your password with the link in our other e-mail.</p>`,
  };
}

/** To the owner of an existing account a shelter's upload registered pets to: no pet arrives unannounced. */
export function petsRegisteredByShelterEmail(firstName: string, shelterEmail: string, petNames: readonly string[]) {
  const list = petNames.map(oneLine).join(', ');
  return {
    kind: 'shelter-upload' as const,
    subject: 'Pets were registered to your account by a shelter',
    text: `${greeting(firstName)}\n\nThe shelter ${shelterEmail} registered these pets to your pet registry account: ${list}.\nSign in to check their details and choose a plan to activate their microchips.\n\nIf you do not know these pets, please contact our support.\n`,
    html: `<p>${escapeHtml(greeting(firstName))}</p><p>The shelter ${escapeHtml(shelterEmail)} registered these pets to your pet registry account: ${escapeHtml(list)}. Sign in to check their details and choose a plan to activate their microchips.</p><p>If you do not know these pets, please contact our support.</p>`,
  };
}

/** To the existing account named as the shelter of an upload: the pets it now holds. */
export function petsRegisteredToShelterEmail(firstName: string, petNames: readonly string[]) {
  const list = petNames.join(', ');
  return {
    kind: 'shelter-upload' as const,
    subject: 'Pets were registered to your account',
    text: `${greeting(firstName)}

Our support team uploaded a list of pets naming your account as the shelter, and registered these pets to it: ${list}.
Sign in to check their details and choose a plan to activate their microchips.

If you do not know these pets, please contact our support.
`,
    html: `<p>${escapeHtml(greeting(firstName))}</p><p>Our support team uploaded a list of pets naming your account as the shelter, and registered these pets to it: ${escapeHtml(list)}. Sign in to check their details and choose a plan to activate their microchips.</p><p>If you do not know these pets, please contact our support.</p>`,
  };
}
