/**
 * Logistic regression on standardised features by Newton's method, shared by the benches that fit
 * confidence models (bench/calibrate.ts, bench/nearmiss.ts). A small ridge keeps it stable; each
 * caller keeps its own ridge and iteration cap, so its fitted numbers stay as they were.
 */

/** A fitted model's numbers, rounded to 6 decimals (the shape of a ConfidenceModel's). */
export interface LogisticFit {
  readonly means: number[];
  readonly scales: number[];
  readonly weights: number[];
  readonly bias: number;
}

export function fitLogistic(
  X: readonly number[][],
  y: readonly number[],
  ridge: number,
  iterations: number,
): LogisticFit {
  const d = X[0]!.length;
  const means = Array.from({ length: d }, (_, j) => X.reduce((s, x) => s + x[j]!, 0) / X.length);
  const scales = Array.from({ length: d }, (_, j) => {
    const v = X.reduce((s, x) => s + (x[j]! - means[j]!) ** 2, 0) / X.length;
    return Math.sqrt(v) || 1;
  });
  const Z = X.map((x) => [...x.map((v, j) => (v - means[j]!) / scales[j]!), 1]);
  const w = new Array<number>(d + 1).fill(0);
  for (let it = 0; it < iterations; it++) {
    const g = new Array<number>(d + 1).fill(0);
    const H = Array.from({ length: d + 1 }, () => new Array<number>(d + 1).fill(0));
    Z.forEach((z, i) => {
      const p = 1 / (1 + Math.exp(-z.reduce((s, v, j) => s + v * w[j]!, 0)));
      for (let a = 0; a <= d; a++) {
        g[a]! += (p - y[i]!) * z[a]!;
        for (let b = 0; b <= d; b++) H[a]![b]! += p * (1 - p) * z[a]! * z[b]!;
      }
    });
    for (let a = 0; a < d; a++) {
      g[a]! += ridge * w[a]!;
      H[a]![a]! += ridge;
    }
    const step = solve(H, g);
    let moved = 0;
    for (let a = 0; a <= d; a++) {
      w[a]! -= step[a]!;
      moved = Math.max(moved, Math.abs(step[a]!));
    }
    if (moved < 1e-9) break;
  }
  const round = (v: number): number => Math.round(v * 1e6) / 1e6;
  return {
    means: means.map(round),
    scales: scales.map(round),
    weights: w.slice(0, d).map(round),
    bias: round(w[d]!),
  };
}

/** Gaussian elimination with partial pivoting: H s = g. */
export function solve(H: number[][], g: number[]): number[] {
  const n = g.length;
  const A = H.map((row, i) => [...row, g[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(A[r]![c]!) > Math.abs(A[p]![c]!)) p = r;
    [A[c], A[p]] = [A[p]!, A[c]!];
    for (let r = c + 1; r < n; r++) {
      const f = A[r]![c]! / A[c]![c]!;
      for (let k = c; k <= n; k++) A[r]![k]! -= f * A[c]![k]!;
    }
  }
  const s = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let v = A[r]![n]!;
    for (let k = r + 1; k < n; k++) v -= A[r]![k]! * s[k]!;
    s[r] = v / A[r]![r]!;
  }
  return s;
}
