import 'leaflet/dist/leaflet.css';
import { Box, Link } from '@mui/material';
import { divIcon, latLngBounds, type LatLngTuple } from 'leaflet';
import { useEffect, useMemo } from 'react';
import { MapContainer, Marker, Popup, TileLayer, useMap } from 'react-leaflet';
import { Link as RouterLink } from 'react-router';
import { usePublicSettings } from '../../app/settings';

/** A vet on the map: its number in the list beside the map, and its page when it has one. */
export interface MapPoint {
  key: string;
  latitude: number;
  longitude: number;
  name: string;
  /** The number its card shows; a single vet's map shows none. */
  number?: number;
  /** The vet's page in the portal; null for a maps service's place not yet in the directory. */
  href: string | null;
  /** A line under the name in the marker's bubble ("2.4 miles away"). */
  detail?: string;
}

interface VetMapProps {
  /** The map's accessible name ("Map of the results"). */
  label: string;
  points: MapPoint[];
  /** Where the map looks when there are no points (the searched ZIP's centre). */
  centre?: { latitude: number; longitude: number } | null;
  height: { xs: number; sm: number };
}

/** Close enough to see the streets around one vet; no closer when several lie together. */
const STREET_ZOOM = 15;
const CITY_ZOOM = 11;

const markerIcon = (number: number | undefined) =>
  divIcon({
    className: 'vet-map-marker',
    html: number === undefined ? '' : `<span>${number}</span>`,
    iconSize: [30, 30],
    iconAnchor: [15, 15],
    popupAnchor: [0, -15],
  });

/**
 * The vets of a search, or one vet, on a map (Leaflet, lazy-loaded with the vet screens). Tiles come
 * from the portal's setting (OpenStreetMap's by default), credited as their provider asks.
 */
export default function VetMap({ label, points, centre, height }: VetMapProps) {
  const tiles = usePublicSettings().data?.mapTiles;
  const positions = useMemo(() => points.map((point): LatLngTuple => [point.latitude, point.longitude]), [points]);
  const start: LatLngTuple = positions[0] ?? (centre ? [centre.latitude, centre.longitude] : [39.5, -98.35]);

  return (
    <Box
      role="region"
      aria-label={label}
      sx={{
        height,
        borderRadius: 2,
        overflow: 'hidden',
        border: 1,
        borderColor: 'divider',
        bgcolor: 'grey.100',
        // Above the map's own panes, below the app bar and dialogs.
        position: 'relative',
        zIndex: 0,
        '& .leaflet-container': { height: '100%', font: 'inherit' },
        // The provider's credit on one line under the map, a phone's width included.
        '& .leaflet-control-attribution': { whiteSpace: 'nowrap', fontSize: { xs: '0.6875rem', sm: '0.75rem' } },
        '& .vet-map-marker': {
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          borderRadius: '50%',
          bgcolor: 'primary.main',
          color: 'primary.contrastText',
          border: '2px solid white',
          boxShadow: 2,
          fontWeight: 700,
          fontSize: '0.85rem',
        },
      }}
    >
      {tiles && (
        <MapContainer center={start} zoom={points.length === 1 ? STREET_ZOOM : CITY_ZOOM} scrollWheelZoom={false}>
          <TileLayer url={tiles.url} attribution={tiles.attribution} />
          <FitToPoints positions={positions} />
          {points.map((point) => (
            <Marker
              key={point.key}
              position={[point.latitude, point.longitude]}
              icon={markerIcon(point.number)}
              title={point.number === undefined ? point.name : `${point.number}. ${point.name}`}
            >
              <Popup>
                {point.href ? (
                  <Link component={RouterLink} to={point.href} sx={{ fontWeight: 600 }}>
                    {point.name}
                  </Link>
                ) : (
                  <strong>{point.name}</strong>
                )}
                {point.detail && <Box sx={{ mt: 0.5 }}>{point.detail}</Box>}
              </Popup>
            </Marker>
          ))}
        </MapContainer>
      )}
    </Box>
  );
}

/** Brings every point into view when the points change (Show more adds some). */
function FitToPoints({ positions }: { positions: LatLngTuple[] }) {
  const map = useMap();
  useEffect(() => {
    if (positions.length === 1) map.setView(positions[0]!, STREET_ZOOM);
    else if (positions.length > 1) map.fitBounds(latLngBounds(positions), { padding: [24, 24], maxZoom: STREET_ZOOM });
  }, [map, positions]);
  return null;
}
