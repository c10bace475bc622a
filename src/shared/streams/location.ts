/** Coordinate and timezone rules for a stream's location (spec §5). */

/** Valid only if latitude is within -90..90 and longitude within -180..180. */
export function isValidCoordinates(latitude: number, longitude: number): boolean {
  return (
    Number.isFinite(latitude) && Number.isFinite(longitude) &&
    latitude >= -90 && latitude <= 90 && longitude >= -180 && longitude <= 180
  );
}

/** True for an IANA zone name the runtime knows ("Africa/Windhoek", "UTC"). */
export function isValidTimezone(zone: string): boolean {
  if (!/^[A-Za-z_+\-/0-9]{1,64}$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Lat/lon to 2 decimals, as the stream cards show them. */
export function formatCoordinates(latitude: number, longitude: number): string {
  return `${latitude.toFixed(2)}, ${longitude.toFixed(2)}`;
}
