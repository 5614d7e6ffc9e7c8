/**
 * C's printf formatting, for Qprintf, Qfprintf and StrataLog (Appendix A 9.1, 9.3:
 * "the arguments work like printf"). Conversions d i u o x X c s f F e E g G p and %%
 * with the flags - + space # 0, a width and a precision (either may be *), and the
 * length modifiers hh h l ll q j z t L. Integers take C's types on the CM-5's SPARC:
 * int and long are 32 bits (-1 prints as 4294967295 with %u, 0xffffffff as -1 with
 * %d), hh and h cut to 8 and 16 bits, ll, q and j are 64 bits; a fraction passed to
 * an integer conversion is cut to its integer part. A conversion without an argument,
 * one C does not define, and %n and C99's %a (no output to write, and newer than
 * Strata's C library) are left as written. Widths and precisions above
 * MAX_FIELD are refused (a RangeError): %.999999999f would build a billion digits.
 */

/** The largest width or precision a conversion may ask for. */
export const MAX_FIELD = 10000;

/** One conversion's flags, width and precision. */
interface Spec {
  left: boolean;
  plus: boolean;
  space: boolean;
  alt: boolean;
  zero: boolean;
  width: number;
  /** -1: none given. */
  precision: number;
}

const CONVERSION = /%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d*))?(hh|h|ll|l|q|j|z|t|L)?([diuoxXcsfFeEgGp%])?/g;

/** `format` with its conversions replaced by `args`, as C's printf writes them. */
export function formatC(format: string, ...args: unknown[]): string {
  let next = 0;
  return format.replace(CONVERSION, (whole: string, flags: string, width: string | undefined, precision: string | undefined, length: string | undefined, conversion: string | undefined) => {
    if (conversion === undefined) return whole;
    if (conversion === '%') return whole === '%%' ? '%' : whole;
    const starArgs = (width === '*' ? 1 : 0) + (precision === '*' ? 1 : 0);
    if (next + starArgs >= args.length) return whole;
    const spec: Spec = { left: flags.includes('-'), plus: flags.includes('+'), space: flags.includes(' '), alt: flags.includes('#'), zero: flags.includes('0'), width: 0, precision: -1 };
    if (width === '*') {
      const w = Math.trunc(Number(args[next++])) | 0;
      if (w < 0) spec.left = true;
      spec.width = Math.abs(w);
    } else if (width !== undefined) spec.width = Number(width);
    if (precision === '*') {
      const p = Math.trunc(Number(args[next++])) | 0;
      spec.precision = p < 0 ? -1 : p;
    } else if (precision !== undefined) spec.precision = precision === '' ? 0 : Number(precision);
    if (spec.width > MAX_FIELD || spec.precision > MAX_FIELD) throw new RangeError(`"${whole}" asks for ${Math.max(spec.width, spec.precision)} characters; expected a width and precision of at most ${MAX_FIELD}`);
    return convert(conversion, length ?? '', spec, args[next++]);
  });
}

function convert(conversion: string, length: string, spec: Spec, arg: unknown): string {
  switch (conversion) {
    case 'd':
    case 'i':
      return integer(signedOf(arg, length), 10, spec, false);
    case 'u':
      return integer(unsignedOf(arg, length), 10, spec, false);
    case 'o':
      return integer(unsignedOf(arg, length), 8, spec, false);
    case 'x':
      return integer(unsignedOf(arg, length), 16, spec, false);
    case 'X':
      return integer(unsignedOf(arg, length), 16, spec, true);
    case 'p':
      return integer(unsignedOf(arg, ''), 16, { ...spec, alt: true }, false);
    case 'c':
      return pad(typeof arg === 'string' ? arg.slice(0, 1) : String.fromCharCode(Number(unsignedOf(arg, 'hh'))), spec, false);
    case 's': {
      const text = String(arg);
      return pad(spec.precision >= 0 ? text.slice(0, spec.precision) : text, spec, false);
    }
    default:
      return floating(Number(arg), conversion, spec);
  }
}

/** The integer part of `arg`, as a BigInt (0 for what is not a finite number). */
function integerOf(arg: unknown): bigint {
  if (typeof arg === 'bigint') return arg;
  const x = Math.trunc(Number(arg));
  return Number.isFinite(x) ? BigInt(x) : 0n;
}

/** Bits an integer of C type `length` holds on the SPARC (int and long: 32). */
function bitsOf(length: string): number {
  return length === 'hh' ? 8 : length === 'h' ? 16 : length === 'll' || length === 'q' || length === 'j' ? 64 : 32;
}

function signedOf(arg: unknown, length: string): bigint {
  return BigInt.asIntN(bitsOf(length), integerOf(arg));
}

function unsignedOf(arg: unknown, length: string): bigint {
  return BigInt.asUintN(bitsOf(length), integerOf(arg));
}

/** %d %u %o %x %X: at least `precision` digits, a sign or prefix, padded to the width. */
function integer(value: bigint, radix: number, spec: Spec, upper: boolean): string {
  const negative = value < 0n;
  let digits = (negative ? -value : value).toString(radix);
  if (upper) digits = digits.toUpperCase();
  if (spec.precision === 0 && value === 0n) digits = '';
  if (spec.precision > digits.length) digits = digits.padStart(spec.precision, '0');
  let prefix = negative ? '-' : radix === 10 && spec.plus ? '+' : radix === 10 && spec.space ? ' ' : '';
  if (spec.alt && radix === 8 && !digits.startsWith('0')) digits = `0${digits}`;
  if (spec.alt && radix === 16 && value !== 0n) prefix = upper ? '0X' : '0x';
  return padNumber(prefix, digits, spec, spec.precision < 0);
}

/** %f %e %g and their capitals; infinities and NaN as inf and nan. */
function floating(x: number, conversion: string, spec: Spec): string {
  const upper = conversion === 'F' || conversion === 'E' || conversion === 'G';
  const negative = x < 0 || Object.is(x, -0);
  const sign = negative ? '-' : spec.plus ? '+' : spec.space ? ' ' : '';
  if (!Number.isFinite(x)) {
    const word = Number.isNaN(x) ? 'nan' : 'inf';
    return pad(sign + (upper ? word.toUpperCase() : word), spec, false);
  }
  const a = Math.abs(x);
  const p = spec.precision < 0 ? 6 : spec.precision;
  let body: string;
  switch (conversion.toLowerCase()) {
    case 'f':
      body = fixed(a, p, spec.alt);
      break;
    case 'e':
      body = exponential(a, p, spec.alt);
      break;
    default: {
      // C99 7.19.6.1: %e's exponent X decides; P significant digits, trailing zeros dropped unless #.
      const P = p === 0 ? 1 : p;
      const X = a === 0 ? 0 : Number(exponential(a, P - 1, false).split('e')[1]);
      body = P > X && X >= -4 ? fixed(a, P - 1 - X, spec.alt) : exponential(a, P - 1, spec.alt);
      if (!spec.alt) body = withoutTrailingZeros(body);
      break;
    }
  }
  return padNumber(sign, upper ? body.toUpperCase() : body, spec, true);
}

/** %g's form: the fraction's trailing zeros dropped, and its point if nothing is left after it. */
function withoutTrailingZeros(body: string): string {
  const [mantissa, exponent] = body.split('e');
  if (!mantissa.includes('.')) return body;
  const trimmed = mantissa.replace(/0+$/, '').replace(/\.$/, '');
  return exponent === undefined ? trimmed : `${trimmed}e${exponent}`;
}

/** `a` (finite, not negative) as m x 2^e with m and e integers, exactly. */
function binaryParts(a: number): [bigint, bigint] {
  bits.setFloat64(0, a);
  const high = bits.getUint32(0);
  const exponent = (high >>> 20) & 0x7ff;
  const fraction = (BigInt(high & 0xfffff) << 32n) | BigInt(bits.getUint32(4));
  return exponent === 0 ? [fraction, -1074n] : [fraction | (1n << 52n), BigInt(exponent - 1075)];
}

const bits = new DataView(new ArrayBuffer(8));

/**
 * round(a x 10^k) for an integer k, exactly, ties to even: glibc's rounding of the
 * exact binary value (JavaScript's toFixed rounds ties up, 2.5 to "3" where C prints 2).
 */
function scaledRound(a: number, k: number): bigint {
  const [m, e] = binaryParts(a);
  let num = m;
  let den = 1n;
  if (e >= 0n) num <<= e;
  else den <<= -e;
  if (k >= 0) num *= 10n ** BigInt(k);
  else den *= 10n ** BigInt(-k);
  const q = num / den;
  const twice = 2n * (num % den);
  return twice > den || (twice === den && (q & 1n) === 1n) ? q + 1n : q;
}

/** `a` (finite, not negative) with `p` decimals, exactly as C writes it. */
function fixed(a: number, p: number, alt: boolean): string {
  const digits = scaledRound(a, p).toString().padStart(p + 1, '0');
  const whole = digits.slice(0, digits.length - p);
  return p > 0 ? `${whole}.${digits.slice(whole.length)}` : alt ? `${whole}.` : whole;
}

/** `a` (finite, not negative) as d.ddde+XX: `p` decimals, an exponent of at least two digits. */
function exponential(a: number, p: number, alt: boolean): string {
  let e = a === 0 ? 0 : Math.floor(Math.log10(a));
  let q = scaledRound(a, p - e);
  // log10 can be one off near powers of ten, and rounding can carry to one more digit.
  const limit = 10n ** BigInt(p + 1);
  if (a !== 0 && q < limit / 10n) q = scaledRound(a, p - --e);
  if (q >= limit) q = scaledRound(a, p - ++e);
  const digits = a === 0 ? '0'.repeat(p + 1) : q.toString();
  const mantissa = p > 0 ? `${digits[0]}.${digits.slice(1)}` : alt ? `${digits}.` : digits;
  return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
}

/** A sign or prefix and digits padded to the width: zeros go between them with the 0 flag (when `zeroAllowed`). */
function padNumber(prefix: string, digits: string, spec: Spec, zeroAllowed: boolean): string {
  const fill = spec.width - prefix.length - digits.length;
  if (fill <= 0) return prefix + digits;
  if (spec.left) return prefix + digits + ' '.repeat(fill);
  if (spec.zero && zeroAllowed) return prefix + '0'.repeat(fill) + digits;
  return ' '.repeat(fill) + prefix + digits;
}

function pad(text: string, spec: Spec, zeroAllowed: boolean): string {
  return padNumber('', text, spec, zeroAllowed);
}
