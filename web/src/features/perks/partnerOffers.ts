/** One partner discount of spec section 1: a static link to the partner's public site. */
export interface PartnerOffer {
  id: 'telehealth' | 'pet-meds' | 'gps-collars' | 'pet-insurance';
  /** The offer as the spec words it. */
  title: string;
  description: string;
  partner: string;
  href: string;
  action: string;
}

/** Affordable pet insurance: on Member Perks and promoted on the Thank You page (spec 1). */
export const petInsuranceOffer: PartnerOffer = {
  id: 'pet-insurance',
  title: 'Affordable pet insurance',
  description: 'Coverage for accidents, illnesses and wellness care, so the vet bill never decides the treatment.',
  partner: 'Nationwide Pet Insurance',
  href: 'https://www.petinsurance.com/',
  action: 'Get a quote',
};

/** Every partner link of the product, kept in this one place. */
export const partnerOffers: readonly PartnerOffer[] = [
  {
    id: 'telehealth',
    title: '20% off telehealth vet',
    description: 'Video chat with a licensed veterinarian from home, day or night, without the waiting room.',
    partner: 'Vetster',
    href: 'https://vetster.com/',
    action: 'Book a virtual visit',
  },
  {
    id: 'pet-meds',
    title: '20% off pet meds for new customers',
    description: 'Prescription and everyday medications, flea and tick care, delivered to your door.',
    partner: '1-800-PetMeds',
    href: 'https://www.1800petmeds.com/',
    action: 'Shop pet meds',
  },
  {
    id: 'gps-collars',
    title: '30% off GPS collars',
    description: 'Track your pet live on your phone and get an alert the moment they leave home.',
    partner: 'Fi',
    href: 'https://tryfi.com/',
    action: 'Shop GPS collars',
  },
  petInsuranceOffer,
];
