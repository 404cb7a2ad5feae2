// An evaluator's score distribution as a small bar chart (Recharts, loaded with the experiment).
import { Bar, BarChart, ResponsiveContainer, Tooltip, XAxis } from 'recharts';

export function Distribution({ data }: { data: { from: number; to: number; count: number }[] }) {
  const rows = data.map((b) => ({ range: b.from === b.to ? String(+b.from.toFixed(2)) : `${+b.from.toFixed(2)}–${+b.to.toFixed(2)}`, count: b.count }));
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
