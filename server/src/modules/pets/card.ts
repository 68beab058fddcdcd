import { messages, paths, shortLinkQrOptions, withId, type PetCardSize } from '@petreg/contract';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { imageFolders, isStoredImageName, squareCopy } from '../../adapters/storage/images.js';
import type { FileStorage } from '../../adapters/storage/index.js';
import type { Database } from '../../db/client.js';
import { chips, chipTypes, pets, shortLinks, species } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import type { Session } from '../../plugins/auth.js';

/** Page sizes in PDF points (1/72 inch): A6 is 105 × 148 mm. */
const pageSizes: Record<PetCardSize, [number, number]> = { a6: [297.64, 419.53], letter: [612, 792] };
/** The layout is drawn for A6's width and scaled: Letter is the same card, larger. */
const BASE_WIDTH = pageSizes.a6[0];
const INK = '#1f2937';
const ACCENT = '#1565c0';
const MUTED = '#4b5563';

export interface PetCardData {
  name: string;
  species: string | null;
  chips: { chipId: string; brand: string | null }[];
  photo: Buffer | null;
  shortUrl: string | null;
}

/** The PDF and QR code libraries, loaded with the first card asked for, not at every start (they took a sixth of a second of it). */
export const loadCardLibraries = () => Promise.all([import('pdfkit'), import('qrcode')]);

/** Draws the card: one page, whatever the size; nothing flows onto a second page. */
export async function renderPetCard(card: PetCardData, size: PetCardSize, registry: { name: string; phone: string }): Promise<Buffer> {
  const [{ default: PDFDocument }, { default: QRCode }] = await loadCardLibraries();
  const [width, height] = pageSizes[size];
  const k = width / BASE_WIDTH;
  const doc = new PDFDocument({ size: [width, height], margin: 0, autoFirstPage: true, info: { Title: `${card.name} - ${registry.name}`, Author: registry.name } });
  const done = new Promise<Buffer>((resolve, reject) => {
    const parts: Buffer[] = [];
    doc.on('data', (part: Buffer) => parts.push(part));
    doc.on('end', () => resolve(Buffer.concat(parts)));
    doc.on('error', reject);
  });
  const margin = 18 * k;
  const inner = width - 2 * margin;
  // Text never wraps past its box or starts a page: a long name is cut to the line.
  const line = (text: string, y: number, font: string, pt: number, color: string, align: 'left' | 'center' = 'center', x = margin, w = inner) =>
    doc.font(font).fontSize(pt * k).fillColor(color).text(text, x, y, { width: w, align, lineBreak: false, ellipsis: true, height: pt * k * 1.3 });

  doc.rect(0, 0, width, 30 * k).fill(ACCENT);
  line(`${registry.name.toUpperCase()} · MICROCHIP ID CARD`, 10 * k, 'Helvetica-Bold', 9, '#ffffff');
  let y = 40 * k;
  line(card.name, y, 'Helvetica-Bold', 24, INK);
  y += 30 * k;
  if (card.species) {
    line(card.species, y, 'Helvetica', 10, MUTED);
    y += 14 * k;
  }
  const photoSide = 112 * k;
  if (card.photo) {
    doc.image(card.photo, (width - photoSide) / 2, y, { width: photoSide, height: photoSide });
    doc.rect((width - photoSide) / 2, y, photoSide, photoSide).lineWidth(0.75 * k).stroke('#d1d5db');
    y += photoSide + 8 * k;
  }
  for (const chip of card.chips.slice(0, 3)) {
    line(`Microchip ${chip.chipId}${chip.brand ? `  ·  ${chip.brand}` : ''}`, y, 'Helvetica-Bold', 10, INK);
    y += 14 * k;
  }
  if (card.chips.length === 0) {
    line('No microchip registered yet', y, 'Helvetica', 10, MUTED);
    y += 14 * k;
  }
  y += 6 * k;
  if (card.shortUrl) {
    const qrSide = 86 * k;
    const qr = await QRCode.toBuffer(card.shortUrl, { ...shortLinkQrOptions, type: 'png', width: Math.round(qrSide * 4) });
    doc.image(qr, margin, y, { width: qrSide, height: qrSide });
    const textX = margin + qrSide + 10 * k;
    const textW = width - margin - textX;
    doc.font('Helvetica-Bold').fontSize(11 * k).fillColor(INK).text('Found me? Scan to reach my family.', textX, y + 16 * k, { width: textW });
    doc.font('Helvetica').fontSize(8 * k).fillColor(ACCENT).text(card.shortUrl, textX, doc.y + 4 * k, { width: textW, link: card.shortUrl });
    y += qrSide + 6 * k;
  }
  const footer = Math.max(y, height - 58 * k);
  doc.moveTo(margin, footer).lineTo(width - margin, footer).lineWidth(0.75 * k).stroke('#d1d5db');
  line('Registry 24/7 line', footer + 8 * k, 'Helvetica', 9, MUTED);
  line(registry.phone, footer + 21 * k, 'Helvetica-Bold', 16, ACCENT);
  doc.end();
  return done;
}

/** GET Pet/{id}/card.pdf: the owner's own pet only; another's is as unknown as a missing one. */
export function createPetCards(deps: { db: Database; storage: FileStorage; publicUrl: string; registry: { name: string; phone: string } }) {
  const { db, storage } = deps;
  return {
    async card(session: Session, petId: number, size: PetCardSize): Promise<{ name: string; pdf: Buffer }> {
      const [pet] = await db
        .select({ name: pets.name, image: pets.image, species: species.name, code: shortLinks.code })
        .from(pets)
        .leftJoin(species, eq(species.id, pets.speciesId))
        .leftJoin(shortLinks, eq(shortLinks.petId, pets.id))
        .where(and(eq(pets.id, petId), eq(pets.userId, session.userId), isNull(pets.deletedAt)));
      if (!pet) throw notFound(messages.notFound);
      const chipRows = await db
        .select({ chipId: chips.chipId, brand: chipTypes.name })
        .from(chips)
        .leftJoin(chipTypes, eq(chipTypes.id, chips.chipTypeId))
        .where(and(eq(chips.petId, petId), isNull(chips.removedAt)))
        .orderBy(asc(chips.id));
      const stored = pet.image && isStoredImageName(pet.image) ? await storage.get(imageFolders.pets, pet.image) : null;
      const pdf = await renderPetCard(
        {
          name: pet.name,
          species: pet.species,
          chips: chipRows,
          photo: stored && (await squareCopy(stored, 600)),
          shortUrl: pet.code ? `${deps.publicUrl}${withId(paths.short, pet.code)}` : null,
        },
        size,
        deps.registry,
      );
      return { name: pet.name, pdf };
    },
  };
}
