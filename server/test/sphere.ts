// Distances on the sphere PostgreSQL's earthdistance measures on: the oracle of the radius tests.

/** earthdistance's earth(): the sphere ll_to_earth and earth_distance measure on, in meters. */
const EARTH_RADIUS_METERS = 6_378_168;
const METERS_PER_MILE = 1609.344;
const radians = (degrees: number) => (degrees * Math.PI) / 180;

export interface Point {
  latitude: number;
  longitude: number;
}

/** The oracle: great-circle miles by the haversine formula on the same sphere. */
export function haversineMiles(a: Point, b: Point): number {
  const dLat = radians(b.latitude - a.latitude);
  const dLon = radians(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return (2 * EARTH_RADIUS_METERS * Math.asin(Math.sqrt(h))) / METERS_PER_MILE;
}

/** The point `miles` away from `from` heading `bearing` degrees from north, on the same sphere. */
export function pointAt(from: Point, miles: number, bearing: number): Point {
  const angle = (miles * METERS_PER_MILE) / EARTH_RADIUS_METERS;
  const lat1 = radians(from.latitude);
  const heading = radians(bearing);
  const lat2 = Math.asin(Math.sin(lat1) * Math.cos(angle) + Math.cos(lat1) * Math.sin(angle) * Math.cos(heading));
  const lon2 = radians(from.longitude) + Math.atan2(Math.sin(heading) * Math.sin(angle) * Math.cos(lat1), Math.cos(angle) - Math.sin(lat1) * Math.sin(lat2));
  const degrees = (r: number) => (r * 180) / Math.PI;
  return { latitude: degrees(lat2), longitude: ((degrees(lon2) + 540) % 360) - 180 };
}
