// An evaluator's score distribution as a small bar chart (Recharts, loaded with the experiment).
import { Bar, BarChart, ResponsiveContainer, Tooltip, XAxis } from 'recharts';

export function Distribution({ data }: { data: { from: number; to: number; count: number }[] }) {
  const rows = data.map((b) => ({
    range: b.from === b.to ? String(+b.from.toFixed(2)) : `${+b.from.toFixed(2)}–${+b.to.toFixed(2)}`,
    count: b.count,
  }));
  return (
    <div style={{ height: 90 }} data-testid="eval-distribution">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows}>
          <XAxis dataKey="range" fontSize={10} />
          <Tooltip />
          <Bar dataKey="count" fill="#165dff" />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

/** Each evaluator's mean per experiment, as grouped bars (the comparison). */
export function MeansChart({
  metrics,
  names,
}: {
  metrics: { name: string; means: (number | null)[] }[];
  names: string[];
}) {
  const colors = ['#165dff', '#ff7d00', '#00b42a', '#722ed1', '#f53f3f'];
  const rows = metrics.map((m) =>
    Object.fromEntries([['evaluator', m.name], ...m.means.map((v, i) => [`e${i}`, v ?? 0])]),
  );
  return (
    <div style={{ height: 220, marginBottom: 12 }} data-testid="eval-compare-chart">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows}>
          <XAxis dataKey="evaluator" fontSize={11} />
          <Tooltip />
          {names.map((n, i) => (
            <Bar key={i} dataKey={`e${i}`} name={n} fill={colors[i % colors.length]} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
