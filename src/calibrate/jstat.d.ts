/** The part of jstat (CommonJS, no published types) the fitter uses: Student's t quantiles. */
declare module 'jstat' {
  const jstat: {
    jStat: {
      studentt: { inv(p: number, dof: number): number };
    };
  };
  export default jstat;
}
