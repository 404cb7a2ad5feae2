// A vector scan worker of the embedded engine: holds shared read-only views of dataset matrices and
// answers the best rows of its share of them for a query vector.
import { parentPort } from 'node:worker_threads';

/** datasetId -> { version, matrix (Float32Array over a SharedArrayBuffer), dims } */
const held = new Map();

function scan(matrix, dims, from, to, q, k) {
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

parentPort.on('message', (m) => {
  if (m.type === 'hold') {
    held.set(m.datasetId, { version: m.version, matrix: new Float32Array(m.buffer), dims: m.dims });
    return;
  }
  if (m.type === 'drop') {
    held.delete(m.datasetId);
    return;
  }
  if (m.type === 'scan') {
    const h = held.get(m.datasetId);
    if (!h || h.version !== m.version) return parentPort.postMessage({ id: m.id, missing: true });
    parentPort.postMessage({ id: m.id, best: scan(h.matrix, h.dims, m.from, m.to, m.q, m.k) });
  }
});
