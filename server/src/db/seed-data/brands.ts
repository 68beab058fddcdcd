// Microchip brands/registries commonly seen on US pet microchips, in the display order the product specifies ("Other..." last).

export const microchipBrands: string[] = [
  "AVID",
  "HomeAgain",
  "24PetWatch",
  "AKC Reunite",
  "PetLink/Datamars",
  "Save This Life",
  "Bayer ResQ",
  "Trovan",
  "Destron Fearing",
  "Banfield",
  "Found Animals",
  "PetKey",
  "Buddy ID",
  "SmartTag",
  "Microchip ID Systems",
  "Other...",
];
