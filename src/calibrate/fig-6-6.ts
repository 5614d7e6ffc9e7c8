/**
 * Thesis Fig. 6-6: the Strata models Brewer's toolkit fitted on the CM-5 and on three
 * PROTEUS platforms, as data, and the side-by-side report of a calibration against
 * them. Terms are named as apps/calibration/strata.spec names its columns.
 * InterruptDelay (70 cycles on the CM-5, 5.33 elsewhere) is not here: Strata in this
 * simulator receives by polling only, so there is no interrupt to time.
 */
import { formula, type FittedModel } from './models.ts';

export interface ThesisModel {
  name: string;
  /** Coefficient by term name; '1' is the constant. */
  terms: Record<string, number>;
  /** The MRE after the colon in the figure, in percent. */
  mrePercent: number;
}

/** Fig. 6-6 by platform name. */
export const FIG_6_6: Record<string, ThesisModel[]> = {
  cm5: [
    { name: 'ClearMemory', terms: { 1: 69.28, length: 1.005 }, mrePercent: 2.33 },
    { name: 'CombineVector', terms: { 1: 110.1, length: 47.5 }, mrePercent: 1.71 },
    { name: 'Roundtrip', terms: { 1: 404.2, hops: 14.4 }, mrePercent: 0.41 },
    { name: 'SendRequest', terms: { 1: 68 }, mrePercent: 0.02 },
    { name: 'SendRPC', terms: { 1: 44 }, mrePercent: 0.03 },
  ],
  alewife: [
    { name: 'ClearMemory', terms: { 1: 66.59, length: 1.382 }, mrePercent: 1.46 },
    { name: 'CombineVector', terms: { 1: 181.5, length: 75.98, logP: 288.3, lengthLogP: 89.05 }, mrePercent: 0.48 },
    { name: 'Roundtrip', terms: { 1: 207.6, hops: 2.552 }, mrePercent: 0.51 },
    { name: 'SendRequest', terms: { 1: 33 }, mrePercent: 0.08 },
    { name: 'SendRPC', terms: { 1: 33 }, mrePercent: 0.11 },
  ],
  paragon: [
    { name: 'ClearMemory', terms: { 1: 66.58, length: 1.383 }, mrePercent: 1.51 },
    { name: 'CombineVector', terms: { 1: 203.9, length: 78.23, logP: 332.7, lengthLogP: 89.82 }, mrePercent: 0.69 },
    { name: 'Roundtrip', terms: { 1: 302.5, hops: 11.23 }, mrePercent: 0.98 },
    { name: 'SendRequest', terms: { 1: 143 }, mrePercent: 0.147 },
    { name: 'SendRPC', terms: { 1: 142.3 }, mrePercent: 0.062 },
  ],
  atm: [
    { name: 'ClearMemory', terms: { 1: 66.59, length: 1.383 }, mrePercent: 1.41 },
    { name: 'CombineVector', terms: { 1: 2678, length: 68.51, lengthLogP: 122.7 }, mrePercent: 1.56 },
    { name: 'Roundtrip', terms: { 1: 2032, hops: 61.89 }, mrePercent: 0.96 },
    { name: 'SendRequest', terms: { 1: 1130 }, mrePercent: 0.21 },
    { name: 'SendRPC', terms: { 1: 1131 }, mrePercent: 1.04 },
  ],
};

function thesisFormula(t: ThesisModel): string {
  return Object.entries(t.terms)
    .map(([term, c]) => (term === '1' ? `${c}` : `${c}*${term}`))
    .join(' + ');
}

/** Each term of either model: the fitted coefficient's difference from the thesis's, or which side lacks it. */
function termComparison(m: FittedModel, t: ThesisModel): string {
  const ours = new Map(m.terms.flatMap((term, k) => (m.relevant[k] ? [[term, m.coefficients[k]] as const] : [])));
  const names = [...new Set([...Object.keys(t.terms), ...ours.keys()])];
  return names
    .map((term) => {
      const mine = ours.get(term);
      const theirs = t.terms[term] as number | undefined;
      if (theirs === undefined) return `${term} here only`;
      if (mine === undefined) return `${term} pruned here`;
      const percent = ((mine - theirs) / Math.abs(theirs)) * 100;
      return `${term} ${percent >= 0 ? '+' : ''}${percent.toFixed(1)}%`;
    })
    .join(', ');
}

/**
 * The side-by-side report: for every platform of Fig. 6-6 among `models`, each of its
 * models fitted here beside the thesis's, with the MREs (verification MRE here, the
 * figure's MRE there) and each coefficient's difference. Empty if none match.
 */
export function fig66Report(models: readonly FittedModel[]): string[] {
  const lines: string[] = [];
  for (const [platform, thesis] of Object.entries(FIG_6_6)) {
    const rows = thesis.flatMap((t) => {
      const m = models.find((x) => x.platform === platform && x.name === t.name);
      if (m === undefined) return [];
      // Without verification samples (--vcount 0), the building samples' MRE, said as such: it was shown under the header's "on the verification samples".
      const mre = m.mreVerificationPercent === null ? `${m.mreBuildingPercent.toFixed(2)}% building` : `${m.mreVerificationPercent.toFixed(2)}%`;
      return [
        `  ${t.name}`,
        `    here    ${formula(m)}  (MRE ${mre})`,
        `    thesis  ${thesisFormula(t)}  (MRE ${t.mrePercent}%)`,
        `    terms   ${termComparison(m, t)}`,
      ];
    });
    if (rows.length > 0) lines.push(`${platform}:`, ...rows);
  }
  return lines.length === 0 ? [] : ['Thesis Fig. 6-6 beside this calibration (cycles; MRE here is on the verification samples)', ...lines];
}
