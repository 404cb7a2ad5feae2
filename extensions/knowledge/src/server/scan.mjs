// The vector scan of the embedded engine, shared by the main thread and the scan workers (plain
// JavaScript, so that a worker loads it without the TypeScript loader).

/**
 * The `k` rows of `matrix` (rows of `dims` numbers, from `from` to `to`) with the largest dot product with
 * `q`, best first, as [row, score] pairs. Four running sums: the loop the JIT makes fastest.
 * @param {Float32Array} matrix @param {number} dims @param {number} from @param {number} to @param {Float32Array} q @param {number} k
 * @returns {[number, number][]}
 */
export function scan(matrix, dims, from, to, q, k) {
  const best = [];
  let floor = -Infinity;
  const tail = dims - (dims % 4);
  for (let r = from; r < to; r++) {
    const o = r * dims;
    let a0 = 0;
    let a1 = 0;
    let a2 = 0;
    let a3 = 0;
    for (let j = 0; j < tail; j += 4) {
      a0 += matrix[o + j] * q[j];
      a1 += matrix[o + j + 1] * q[j + 1];
      a2 += matrix[o + j + 2] * q[j + 2];
      a3 += matrix[o + j + 3] * q[j + 3];
    }
    for (let j = tail; j < dims; j++) a0 += matrix[o + j] * q[j];
    const s = a0 + a1 + a2 + a3;
    if (best.length >= k && s <= floor) continue;
    let at = best.length;
    while (at > 0 && best[at - 1][1] < s) at--;
    best.splice(at, 0, [r, s]);
    if (best.length > k) best.pop();
    floor = best[best.length - 1][1];
  }
  return best;
}
