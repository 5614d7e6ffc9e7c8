// The perf bench's by-kind diagnostic (bench/perf-report.ts kindsText): where a large
// machine's events cost more than a small one's, kind by kind.
import { describe, expect, it } from 'vitest';
import { kindsText } from '../../bench/perf-report.ts';

describe('kindsText', () => {
  it("gives each kind's microseconds per event on both machines and its share of the excess, the largest first", () => {
    const big = [
      [
        { kind: 'packet-head', events: 500, ms: 0.1 },
        { kind: 'resume', events: 1000, ms: 0.6 },
        { kind: 'control-done', events: 1, ms: 0.05 },
      ],
    ];
    const small = [
      [
        { kind: 'resume', events: 800, ms: 0.16 },
        { kind: 'packet-head', events: 400, ms: 0.04 },
      ],
    ];
    // resume: (0.60 - 0.20) x 1000 = 400; head: (0.20 - 0.10) x 500 = 50; control-done, under 1% of the events, left out.
    expect(kindsText(big, small)).toBe('resume 0.60 / 0.20 us (1,000 events, 89% of the excess), packet-head 0.20 / 0.10 us (500 events, 11% of the excess)');
  });

  it('takes the median over the runs, and says when the small machine has no such events', () => {
    const run = (ms: number) => [
      { kind: 'resume', events: 100, ms },
      { kind: 'time-slice', events: 10, ms: 0.01 },
    ];
    const small = [[{ kind: 'resume', events: 100, ms: 0.01 }]];
    expect(kindsText([run(0.03), run(0.05), run(0.04)], small)).toBe('resume 0.40 / 0.10 us (100 events, 100% of the excess), time-slice 1.00 us / none (10 events)');
  });
});
