import type { Role } from './constants.js';

export interface UserState {
  id: number;
  name: string;
  abbreviation: string;
  countryAbbreviation: string;
}

/** The user object of spec section 3, as every account call answers it. */
export interface User {
  id: number;
  role: Role[];
  data: {
    displayName: string;
    photoUrl: string | null;
    email: string;
    /** The owner followed a link mailed to this address (or a provider vouched for it). */
    emailConfirmed: boolean;
    shortcuts: string[];
    haveActivePets: boolean;
    haveSubscriptions: boolean;
    subscriptionUrl: string | null;
    phoneNumber: string | null;
    /** The owner proved the mobile number with a texted code: only then does the portal text it. */
    phoneVerified: boolean;
    firstName: string;
    lastName: string;
    address1: string | null;
    address2: string | null;
    city: string | null;
    zipcode: string | null;
    stateId: number | null;
    state: Pick<UserState, 'abbreviation' | 'countryAbbreviation'> | null;
    notifyByEmail: boolean;
    notifyBySms: boolean;
    /** Found reports are texted to the verified mobile (on unless the owner turned it off). */
    textFoundReports: boolean;
    /** E-mails before a yearly plan renews or ends (on unless the owner turned them off). */
    renewalReminders: boolean;
    /** The yearly e-mail asking to have each pet's chip scanned (on unless the owner turned it off). */
    chipScanReminders: boolean;
    isActive: boolean;
    /**
     * An administrator protected the record (a dispute, a domestic-abuse case): finders and
     * professionals see nothing of the owner, and reach them only through the found-report relay.
     */
    recordProtected: boolean;
    createDate: string;
    settings: { loginRedirectUrl?: string } & Record<string, unknown>;
  };
}

export interface AuthResult {
  user: User;
  token: string;
}

/**
 * `GET Users/email-exists`: `{ id: true }` when an account uses the e-mail (the spec reads
 * `result.id`), null when it is free. Never the account's id, which would help enumerate accounts.
 */
export type EmailExists = { id: true } | null;

export interface NamedItem {
  id: number;
  name: string;
}

export interface StaticData {
  species: NamedItem[];
  brands: NamedItem[];
}

export interface PublicSettings {
  enableQRcodeUpsell: boolean;
  clientSiteBase: string;
  /** Host the public lookup page belongs on; opened elsewhere, it moves there. Null when not configured. */
  productionHost: string | null;
  languages: { id: string; title: string }[];
  socialSignIn: { googleClientId: string | null; facebookAppId: string | null };
  /** The support line, company address and company links shown in the side panel, lookup page and footers. */
  support: {
    phone: string;
    phoneHref: string;
    address: string;
    /** The company's home page: a path in the portal or another site. */
    homeUrl: string;
    /** The company's blog; null when there is none, and no Blog link shows. */
    blogUrl: string | null;
  };
  /** The vet screens' maps: a tile address with {z}, {x}, {y} (Leaflet's template) and the credit shown on the map (HTML). */
  mapTiles: { url: string; attribution: string };
}

export const legalDocuments = ['privacy', 'terms'] as const;
export type LegalDocumentName = (typeof legalDocuments)[number];

/** A legal page's text: headings (#, ##), paragraphs and "- " lists, as the operator wrote it. */
export interface LegalDocument {
  title: string;
  text: string;
}

export interface HealthCheck {
  status: 'Healthy' | 'Unhealthy';
  database: boolean;
}
