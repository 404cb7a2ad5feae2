// A task's mean score per bucket over time, one line per evaluator, drawn as plain SVG (no chart library to load).
import { useFormat } from '@tessera/sdk/client';
import type { z } from 'zod';
import type { ResultPoint } from '../shared/api.ts';

const COLORS = ['#165dff', '#00b42a', '#ff7d00', '#722ed1', '#f53f3f'];
const W = 560;
const H = 180;
const PAD = { l: 36, r: 8, t: 8, b: 22 };

export function ScoreChart({
  series,
  names,
  bucketMs,
}: {
  series: z.output<typeof ResultPoint>[];
  names: { id: string; name: string }[];
  bucketMs: number;
}) {
  const format = useFormat();
  const scored = series.filter((p) => p.avg_score !== null);
  if (!scored.length) return null;
  const t0 = Math.min(...series.map((p) => p.time_ms));
  const t1 = Math.max(...series.map((p) => p.time_ms)) + bucketMs;
  let lo = Math.min(0, ...scored.map((p) => p.avg_score!));
  let hi = Math.max(1, ...scored.map((p) => p.avg_score!));
  if (hi === lo) hi = lo + 1;
  const x = (t: number) => PAD.l + ((t + bucketMs / 2 - t0) / (t1 - t0)) * (W - PAD.l - PAD.r);
  const y = (v: number) => PAD.t + (1 - (v - lo) / (hi - lo)) * (H - PAD.t - PAD.b);
  return (
    <figure style={{ margin: 0 }} data-testid="online-eval-chart">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        width={W}
        height={H}
        style={{ maxWidth: '100%' }}
        role="img"
        aria-label={names.map((n) => n.name).join(', ')}
      >
        {[lo, (lo + hi) / 2, hi].map((v) => (
          <g key={v}>
            <line x1={PAD.l} x2={W - PAD.r} y1={y(v)} y2={y(v)} stroke="var(--color-border-2)" />
            <text x={PAD.l - 4} y={y(v) + 4} fontSize="10" textAnchor="end" fill="var(--color-text-3)">
              {Math.round(v * 100) / 100}
            </text>
          </g>
        ))}
        <text x={PAD.l} y={H - 6} fontSize="10" fill="var(--color-text-3)">
          {format.dateTime(t0)}
        </text>
        <text x={W - PAD.r} y={H - 6} fontSize="10" textAnchor="end" fill="var(--color-text-3)">
          {format.dateTime(t1)}
        </text>
        {names.map((n, i) => {
          const pts = scored.filter((p) => p.evaluator_id === n.id);
          const color = COLORS[i % COLORS.length];
          return (
            <g key={n.id} data-testid="online-eval-line">
              <polyline
                fill="none"
                stroke={color}
                strokeWidth="2"
                points={pts.map((p) => `${x(p.time_ms)},${y(p.avg_score!)}`).join(' ')}
              />
              {pts.map((p) => (
                <circle key={p.time_ms} cx={x(p.time_ms)} cy={y(p.avg_score!)} r="3" fill={color}>
                  <title>{`${n.name} · ${format.dateTime(p.time_ms)} · ${p.avg_score} (${p.count})`}</title>
                </circle>
              ))}
            </g>
          );
        })}
      </svg>
      <figcaption style={{ display: 'flex', gap: 12, fontSize: 12 }}>
        {names.map((n, i) => (
          <span key={n.id}>
            <span style={{ color: COLORS[i % COLORS.length] }}>●</span> {n.name}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
