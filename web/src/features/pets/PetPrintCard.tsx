import { messages, petCardSizes, type Pet, type PetCardSize } from '@petreg/contract';
import { PictureAsPdf } from '@mui/icons-material';
import { Button, Stack, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { api, firstError, saveBlob } from '../../app/api';
import { toast } from '../../app/toast';
import { SectionCard } from '../../components/SectionCard';

const sizeLabels: Record<PetCardSize, string> = { a6: 'A6 card', letter: 'Letter page' };

/** The printable card of GET Pet/{id}/card.pdf: for the fridge, the carrier, or a "lost" poster. */
export function PetPrintCard({ pet }: { pet: Pick<Pet, 'id' | 'name'> }) {
  const download = useMutation({
    mutationFn: (size: PetCardSize) => api.file(`Pet/${pet.id}/card.pdf?size=${size}`, `${pet.name}-card-${size}.pdf`),
    onSuccess: ({ blob, fileName }) => saveBlob(blob, fileName),
    onError: (error) => toast(firstError(error, messages.genericError), { variant: 'error' }),
  });
  return (
    <SectionCard title="Printable Card" avatar={<PictureAsPdf color="primary" />}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        A one-page PDF with {pet.name}'s photo, microchip number, the QR code of the profile and our 24/7 line.
      </Typography>
      <Stack direction="row" useFlexGap spacing={1} sx={{ flexWrap: 'wrap' }}>
        {petCardSizes.map((size) => (
          <Button
            key={size}
            variant="outlined"
            size="small"
            startIcon={<PictureAsPdf />}
            loading={download.isPending && download.variables === size}
            disabled={download.isPending}
            onClick={() => download.mutate(size)}
          >
            {sizeLabels[size]}
          </Button>
        ))}
      </Stack>
    </SectionCard>
  );
}
