import { paths, shortLinkQrOptions as qrOptions, withId, type Pet } from '@petreg/contract';
import { Download, QrCode2 } from '@mui/icons-material';
import { Box, Button, Link, Skeleton, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import QRCode from 'qrcode';
import { usePublicSettings } from '../../app/settings';
import { SectionCard } from '../../components/SectionCard';

/** Large enough to stay sharp when printed on a 1-inch tag. */
const PNG_WIDTH = 1024;

function download(href: string, fileName: string) {
  const anchor = document.createElement('a');
  anchor.href = href;
  anchor.download = fileName;
  anchor.click();
}

async function downloadSvg(url: string, fileName: string) {
  const svg = await QRCode.toString(url, { ...qrOptions, type: 'svg' });
  const blobUrl = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  download(blobUrl, fileName);
  // Some browsers read the blob only after the click returns; let go of it a moment later.
  window.setTimeout(() => URL.revokeObjectURL(blobUrl), 1000);
}

/** The pet's short link and its QR code, for the owner to print on a collar tag. */
export function PetShortLink({ pet }: { pet: Pick<Pet, 'name' | 'shortId'> }) {
  const settings = usePublicSettings();
  // The address finders reach, not the one this page happens to be open on.
  const url = settings.data && pet.shortId ? `${settings.data.clientSiteBase}${withId(paths.short, pet.shortId)}` : null;
  const png = useQuery({
    queryKey: ['qr-code', url],
    queryFn: () => QRCode.toDataURL(url!, { ...qrOptions, width: PNG_WIDTH }),
    enabled: Boolean(url),
    staleTime: Infinity,
  });
  if (!pet.shortId) return null;
  const fileName = `${pet.name.replace(/[^\w-]+/g, '-')}-tag-qr`;

  return (
    <SectionCard title="Collar Tag" avatar={<QrCode2 color="primary" />}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Print this QR code on {pet.name}'s collar tag: whoever scans it sees {pet.name}'s public profile.
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row', lg: 'column' }} spacing={2} sx={{ alignItems: 'center' }}>
        <Box sx={{ width: 160, height: 160, flexShrink: 0 }}>
          {png.data ? (
            <Box component="img" src={png.data} alt={`QR code for ${url}`} sx={{ width: 1, height: 1 }} />
          ) : (
            <Skeleton variant="rectangular" width={160} height={160} />
          )}
        </Box>
        <Stack spacing={1.5} sx={{ minWidth: 0, width: 1 }}>
          {url && (
            <Link href={url} target="_blank" rel="noopener" sx={{ overflowWrap: 'anywhere', fontWeight: 600 }}>
              {url}
            </Link>
          )}
          <Stack direction="row" useFlexGap spacing={1} sx={{ flexWrap: 'wrap', '& .MuiButton-root': { whiteSpace: 'nowrap' } }}>
            <Button
              variant="outlined"
              size="small"
              startIcon={<Download />}
              disabled={!png.data}
              onClick={() => download(png.data!, `${fileName}.png`)}
            >
              Download PNG
            </Button>
            <Button
              variant="outlined"
              size="small"
              startIcon={<Download />}
              disabled={!url}
              onClick={() => void downloadSvg(url!, `${fileName}.svg`)}
            >
              Download SVG
            </Button>
          </Stack>
        </Stack>
      </Stack>
    </SectionCard>
  );
}
