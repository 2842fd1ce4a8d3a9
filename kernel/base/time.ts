/** Date and time text in NetBox's formats: ISO 8601 UTC with `Z`, microseconds only when non-zero. */

const PG_TIMESTAMP = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(\.\d+)?(?:([+-]\d{2})(?::?(\d{2}))?|Z)?$/;

/** PostgreSQL renders timestamptz as `2025-01-14 08:12:44.501233+00` (session zone UTC). */
export function formatDateTime(value: string | Date): string {
  if (value instanceof Date) return trimZeroFraction(value.toISOString().replace(/Z$/, '')) + 'Z';
  const m = PG_TIMESTAMP.exec(value);
  if (!m) return value;
  if ((m[4] && m[4] !== '+00') || (m[5] && m[5] !== '00')) {
    return formatDateTime(new Date(value.replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00')));
  }
  return `${m[1]}T${m[2]}${fraction(m[3])}Z`;
}

function fraction(frac: string | undefined): string {
  if (!frac || /^\.0*$/.test(frac)) return '';
  return frac.padEnd(7, '0');
}

function trimZeroFraction(iso: string): string {
  return iso.replace(/\.(\d+)$/, (_m, f: string) => fraction(`.${f}`));
}

export function formatDate(value: string | Date): string {
  return value instanceof Date ? value.toISOString().slice(0, 10) : value.slice(0, 10);
}

const ISO_DATETIME = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?)?(?:Z|[+-](\d{2}):?(\d{2}))?$/;

/**
 * Accepts ISO 8601 (a date alone means midnight UTC) naming a real moment: no February 30th, no hour 25;
 * returns text PostgreSQL reads, or undefined.
 */
export function parseDateTime(text: string): string | undefined {
  const value = text.trim();
  const m = ISO_DATETIME.exec(value);
  if (!m || !parseDate(m[1])) return undefined;
  const [hour, minute, second, offsetHours, offsetMinutes] = m.slice(2).map((v) => Number(v ?? 0));
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 14 || offsetMinutes > 59) return undefined;
  const hasZone = /(Z|[+-]\d{2}:?\d{2})$/.test(value) && value.length > 10;
  const ms = Date.parse(hasZone ? value : `${value.length === 10 ? `${value}T00:00` : value}Z`);
  if (Number.isNaN(ms)) return undefined;
  return hasZone ? value : `${value}${value.length === 10 ? 'T00:00' : ''}Z`;
}

export function parseDate(text: string): string | undefined {
  const value = text.trim();
  // Years 1 to 9999, as Python's dates (and PostgreSQL, which has no year 0).
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || value.startsWith('0000')) return undefined;
  const d = new Date(`${value}T00:00:00Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== value ? undefined : value;
}
