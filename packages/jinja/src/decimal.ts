/**
 * Python's float formatting. repr() is the shortest round-tripping form (as JavaScript's), laid out Python's way;
 * fixed, exponent and general formats and round() work on the exact binary value and round half to even, as CPython
 * does (JavaScript's toFixed rounds exact ties up).
 */

interface Digits {
  /** Significant digits, no leading zeros; '' for zero. */
  digits: string;
  /** Value = 0.digits × 10^point. */
  point: number;
}

function exact(x: number): Digits {
  if (x === 0) return { digits: '', point: 0 };
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const hi = view.getUint32(0);
  const biased = (hi >>> 20) & 0x7ff;
  let mantissa = (BigInt(hi & 0xfffff) << 32n) | BigInt(view.getUint32(4));
  let exp = -1074;
  if (biased !== 0) {
    mantissa |= 1n << 52n;
    exp = biased - 1075;
  }
  const full = exp >= 0 ? (mantissa << BigInt(exp)).toString() : (mantissa * 5n ** BigInt(-exp)).toString();
  return { digits: full.replace(/0+$/, ''), point: full.length + Math.min(exp, 0) };
}

/** Keep the first `keep` significant digits, rounding half to even. */
function roundTo(d: Digits, keep: number): Digits {
  if (keep >= d.digits.length) return d;
  if (keep < 0) return { digits: '', point: d.point };
  const head = d.digits.slice(0, keep);
  const rest = d.digits.slice(keep);
  const tie = rest[0] === '5' && !/[1-9]/.test(rest.slice(1));
  const up = rest[0] > '5' || (rest[0] === '5' && !tie) || (tie && keep > 0 && Number(head[keep - 1]) % 2 === 1);
  if (!up) return { digits: head.replace(/0+$/, ''), point: d.point };
  const bumped = (BigInt(head || '0') + 1n).toString();
  const carry = bumped.length > head.length ? 1 : 0;
  return { digits: bumped.replace(/0+$/, ''), point: d.point + carry };
}

function sign(x: number): string {
  return x < 0 || Object.is(x, -0) ? '-' : '';
}

function special(x: number, upper: boolean): string | null {
  if (Number.isNaN(x)) return upper ? 'NAN' : 'nan';
  if (!Number.isFinite(x)) return (x < 0 ? '-' : '') + (upper ? 'INF' : 'inf');
  return null;
}

function fixedOf(d: Digits, prec: number): string {
  const intPart = d.point > 0 ? d.digits.slice(0, d.point).padEnd(d.point, '0') : '0';
  const frac = (d.point >= 0 ? d.digits.slice(d.point) : '0'.repeat(-d.point) + d.digits).padEnd(prec, '0');
  return prec > 0 ? `${intPart}.${frac.slice(0, prec)}` : intPart;
}

function expOf(d: Digits, prec: number, upper: boolean): string {
  const digits = d.digits.padEnd(prec + 1, '0');
  const e = d.digits === '' ? 0 : d.point - 1;
  const mantissa = prec > 0 ? `${digits[0]}.${digits.slice(1, prec + 1)}` : digits[0];
  return `${mantissa}${upper ? 'E' : 'e'}${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
}

/** `'%.{prec}f' % x`. */
export function formatFixed(x: number, prec: number, upper = false): string {
  const s = special(x, upper);
  if (s !== null) return s;
  const d = exact(x);
  return sign(x) + fixedOf(roundTo(d, d.point + prec), prec);
}

/** `'%.{prec}e' % x`. */
export function formatExp(x: number, prec: number, upper = false): string {
  const s = special(x, upper);
  if (s !== null) return s;
  return sign(x) + expOf(roundTo(exact(x), prec + 1), prec, upper);
}

/** `'%.{prec}g' % x`; `alt` (the `#` flag) keeps trailing zeros. */
export function formatGeneral(x: number, prec: number, alt = false, upper = false): string {
  const s = special(x, upper);
  if (s !== null) return s;
  const p = prec === 0 ? 1 : prec;
  const d = roundTo(exact(x), p);
  const e = d.digits === '' ? 0 : d.point - 1;
  const out = e >= -4 && e < p ? fixedOf(d, p - 1 - e) : expOf(d, p - 1, upper);
  if (alt) return sign(x) + (/[.eE]/.test(out) ? out : out + '.');
  const [mantissa, exponent = ''] = out.split(/(?=[eE])/);
  const trimmed = mantissa.includes('.') ? mantissa.replace(/0+$/, '').replace(/\.$/, '') : mantissa;
  return sign(x) + trimmed + exponent;
}

/** Python's repr() of a float. */
export function floatRepr(x: number): string {
  const s = special(x, false);
  if (s !== null) return s;
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const [mantissa, expText] = Math.abs(x).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const e = Number(expText);
  let body: string;
  if (e < -4 || e >= 16) {
    const frac = digits.slice(1);
    body = `${digits[0]}${frac ? '.' + frac : ''}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  } else if (e >= 0) {
    body = `${digits.slice(0, e + 1).padEnd(e + 1, '0')}.${digits.slice(e + 1) || '0'}`;
  } else {
    body = `0.${'0'.repeat(-e - 1)}${digits}`;
  }
  return sign(x) + body;
}

/** Python's round(x, ndigits) for a float: the exact value rounded half to even. */
export function roundFloat(x: number, ndigits: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const d = exact(x);
  const r = roundTo(d, d.point + ndigits);
  if (r.digits === '') return x < 0 ? -0 : 0;
  const value = Number(`${r.digits}e${r.point - r.digits.length}`);
  return x < 0 ? -value : value;
}
