/** Fictional insurers and plausible vehicles for the synthetic fleet. */
export const INSURERS = [
  "Acorn Mutual",
  "Harbour Insurance",
  "Kestrel Direct",
  "Lionheart Motor",
  "Meridian General",
  "Northgate Assurance",
  "Pennine Cover",
  "Thistle & Rose",
  "Wessex Motor Underwriters",
  "Yardley Insurance",
] as const;

export const POLICY_TYPES = [
  "Comprehensive",
  "Third Party, Fire and Theft",
  "Third Party Only",
] as const;

export const MODELS_BY_MAKE: Readonly<Record<string, readonly string[]>> = {
  Ford: ["Fiesta", "Focus", "Kuga", "Puma", "Transit"],
  Vauxhall: ["Corsa", "Astra", "Mokka", "Insignia"],
  Volkswagen: ["Polo", "Golf", "Tiguan", "Passat", "ID.3"],
  Toyota: ["Yaris", "Corolla", "RAV4", "Aygo"],
  Nissan: ["Micra", "Qashqai", "Juke", "Leaf"],
  BMW: ["1 Series", "3 Series", "X1", "5 Series"],
  Audi: ["A1", "A3", "A4", "Q3"],
  "Mercedes-Benz": ["A-Class", "C-Class", "GLA", "E-Class"],
  Kia: ["Picanto", "Ceed", "Sportage", "Niro"],
  Hyundai: ["i10", "i20", "Tucson", "Kona"],
  Peugeot: ["208", "308", "2008", "3008"],
  Renault: ["Clio", "Captur", "Megane"],
  Skoda: ["Fabia", "Octavia", "Kodiaq"],
  Honda: ["Jazz", "Civic", "CR-V"],
  Mini: ["Hatch", "Countryman", "Clubman"],
  Tesla: ["Model 3", "Model Y"],
};

export const MAKES = Object.keys(MODELS_BY_MAKE);

export const COLOURS = [
  "Black",
  "White",
  "Silver",
  "Grey",
  "Blue",
  "Red",
  "Green",
  "Orange",
  "Yellow",
  "Brown",
  "Purple",
  "Bronze",
] as const;
