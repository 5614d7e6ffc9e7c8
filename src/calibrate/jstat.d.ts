/** The part of jstat (no published types) the fitter uses: Student's t quantiles. */
declare module 'jstat' {
  export const jStat: {
    studentt: { inv(p: number, dof: number): number };
  };
}
