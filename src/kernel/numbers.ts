/**
 * English number formatting ("1,234,567", "310.4", "0.123") for every number the
 * simulator writes for people: the CLI's output, messages, and files such as a state
 * graph's axis labels. Written out instead of Intl.NumberFormat, for two reasons:
 * making the first Intl.NumberFormat (or calling toLocaleString) loads ICU's locale
 * data, about 12 ms here, which every `sim` run paid to print its summary (3% of the
 * README's first command); and toLocaleString('en-US') answers after the Node build's
 * ICU, so a Node built without it writes "1234" where this writes "1,234", and a
 * state graph's bytes would depend on the build. It lives in the kernel layer,
 * beneath everything that prints.
 *
 * The output is Intl.NumberFormat('en-US')'s for the options these functions stand
 * for, digit for digit (test/kernel/numbers.test.ts compares them over 200,000 values):
 * a number is taken as its shortest round-trip decimal (as ICU takes a double), rounded
 * half away from zero (ECMA-402's default halfExpand), with a comma every three integer
 * digits and no trailing fraction zeros beyond the minimum; a negative number or -0
 * keeps its sign ("-0"), and NaN and the infinities read "NaN", "∞" and "-∞".
 */

/** `x` with at most `maxFraction` fraction digits (at least `minFraction`), grouped. */
export function grouped(x: number, maxFraction = 0, minFraction = 0): string {
  return format(x, (d) => d.point + maxFraction, minFraction);
}

/** `x` to at most `digits` significant digits, grouped. */
export function significant(x: number, digits: number): string {
  return format(x, () => digits, 0);
}

/** A non-negative finite number as decimal digits (no leading zeros) and the place of its point. */
interface Decimal {
  /** The significant digits, "0" for zero. */
  digits: string;
  /** The value is 0.digits x 10^point: digits before the point (negative: zeros after it). */
  point: number;
}

/** The shortest round-trip decimal of a non-negative finite number (JavaScript's own). */
function decimal(x: number): Decimal {
  if (x === 0) return { digits: '0', point: 1 };
  const text = String(x);
  const e = text.indexOf('e');
  const mantissa = e < 0 ? text : text.slice(0, e);
  const exponent = e < 0 ? 0 : Number(text.slice(e + 1));
  const dot = mantissa.indexOf('.');
  const intDigits = dot < 0 ? mantissa.length : dot;
  const all = dot < 0 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1);
  const lead = all.length - all.replace(/^0+/, '').length;
  return { digits: all.slice(lead).replace(/0+$/, '') || '0', point: intDigits - lead + exponent };
}

/**
 * Rounds `x`'s decimal to the digits `keep` allows (counted from the first significant
 * digit) and writes it out.
 */
function format(x: number, keep: (d: Decimal) => number, minFraction: number): string {
  if (Number.isNaN(x)) return 'NaN';
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  if (!Number.isFinite(x)) return `${sign}∞`;
  const d = decimal(Math.abs(x));
  const rounded = round(d, keep(d));
  const intPart = rounded.point > 0 ? rounded.digits.slice(0, rounded.point).padEnd(rounded.point, '0') : '0';
  let fraction = rounded.point >= 0 ? rounded.digits.slice(rounded.point) : '0'.repeat(-rounded.point) + rounded.digits;
  fraction = fraction.replace(/0+$/, '').padEnd(minFraction, '0');
  return sign + intPart.replace(/\B(?=(\d{3})+$)/g, ',') + (fraction === '' ? '' : `.${fraction}`);
}

/** `d` rounded half away from zero to its first `n` digits (n <= 0: to zero or one unit of the first kept place). */
function round(d: Decimal, n: number): Decimal {
  if (n >= d.digits.length) return d;
  if (n < 0) return { digits: '0', point: 1 };
  const up = d.digits.charCodeAt(n) >= 0x35; // '5'
  let kept = d.digits.slice(0, n);
  let point = d.point;
  if (up) {
    // Add one at the last kept place, carrying through nines.
    let i = kept.length - 1;
    while (i >= 0 && kept[i] === '9') i--;
    if (i < 0) {
      kept = `1${'0'.repeat(kept.length)}`;
      point++;
    } else {
      kept = kept.slice(0, i) + String.fromCharCode(kept.charCodeAt(i) + 1) + '0'.repeat(kept.length - i - 1);
    }
  }
  kept = kept.replace(/0+$/, '');
  return kept === '' ? { digits: '0', point: 1 } : { digits: kept, point };
}
